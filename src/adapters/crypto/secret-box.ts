// Encryption at rest for secrets the service must read back (JWT signing keys, webhook secrets):
// AES-256-GCM under the master key, stored as `v1.<iv>.<tag>.<ciphertext>` (base64url parts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SecretBox } from '../../ports/secret-box.js';

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The master key must be 32 bytes');
  return {
    seal(plaintext) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) {
        throw new Error('Not a sealed secret');
      }
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/**
 * The configured master key, or the one kept in `<dataDir>/secret.key`, created on first use. Several
 * processes starting together agree on one file: each writes a key of its own aside, then links it into
 * place, which only the first manages; a reader never sees the file before its key is in it.
 */
export function loadMasterKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    const aside = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(aside, crypto.randomBytes(32).toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
    try {
      fs.linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(aside, { force: true });
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}
