import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

/** Prepares the folder the scenarios save their screenshots to (gitignored). */
export default function globalSetup(): void {
  mkdirSync(resolve(import.meta.dirname, 'artifacts'), { recursive: true });
}
