/**
 * Loaded with `node --import` into a chatkeep the memory benchmark spawns: reports the
 * process's peak RSS on stderr as it exits.
 */
import { PEAK_RSS_LINE, peakRssMb } from './peak-rss.js';

process.on('exit', () => process.stderr.write(`${PEAK_RSS_LINE} ${peakRssMb()}\n`));
