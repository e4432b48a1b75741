/**
 * The project key of a git remote: the same repository cloned on two machines (over ssh on one,
 * https on the other) is one project. `git@github.com:a/b.git`, `https://github.com/a/b`,
 * `ssh://git@github.com:22/a/b.git` all become `github.com/a/b`. Pure: no files, no network.
 */

/** `host/path` of a remote URL (lower-case host, no user, port, `.git` or trailing slash), or undefined for a local path. */
export function remoteKey(remote: string): string | undefined {
  const url = remote.trim();
  if (!url) return undefined;
  let host: string;
  let path: string;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(url);
  if (scheme) {
    const protocol = scheme[1]!.toLowerCase();
    if (protocol === 'file') return undefined;
    const rest = scheme[2]!;
    const slash = rest.indexOf('/');
    const authority = slash < 0 ? rest : rest.slice(0, slash);
    path = slash < 0 ? '' : rest.slice(slash + 1);
    host = authority.slice(authority.lastIndexOf('@') + 1);
    // An ssh URL may carry the scp-like `host:path` form's colon (`ssh://git@host:a/b`), others a port.
    const colon = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(host);
    host = colon?.[1] ?? host;
    const afterColon = colon?.[2];
    if (afterColon && !/^\d+$/.test(afterColon)) path = `${afterColon}/${path}`;
  } else {
    // scp-like syntax `[user@]host:path`, which git takes only when no slash comes before the colon.
    const scp = /^(?:[^@/]+@)?([^:/]+):(.*)$/.exec(url);
    if (!scp || scp[1]!.length === 1) return undefined; // a local path (or a Windows drive letter)
    host = scp[1]!;
    path = scp[2]!;
  }
  host = host.toLowerCase().replace(/\.$/, '');
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (!host || parts.length === 0) return undefined;
  parts[parts.length - 1] = parts[parts.length - 1]!.replace(/\.git$/i, '');
  if (parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0) return undefined;
  return `${host}/${parts.join('/')}`;
}

/** The `url` of `[remote "origin"]` in the text of a git config file. */
export function originFromConfig(text: string): string | undefined {
  return configValue(text, 'remote', 'origin', 'url');
}

/** One value of a git config file (section names and keys are case-insensitive, subsections not). */
export function configValue(text: string, section: string, subsection: string, key: string): string | undefined {
  let inSection = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      inSection = header[1]!.toLowerCase() === section && (header[2] ?? '').replace(/\\(.)/g, '$1') === subsection;
      continue;
    }
    if (!inSection) continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (entry && entry[1]!.toLowerCase() === key) return unquote(entry[2]!);
  }
  return undefined;
}

/** A config value without its quotes, escapes or trailing comment. */
function unquote(value: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < value.length) out += value[++i];
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}
