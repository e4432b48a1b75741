// Gemini CLI's settings for a scratch home pointed at the fake server: an API key, no updates,
// no telemetry (make-peer-fixtures.mjs and make-fork-fixtures.mjs both drive it).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeGeminiSettings(home) {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
  };
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
}
