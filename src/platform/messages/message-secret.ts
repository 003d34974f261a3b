import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A code kept in the messages outbox until it is sent: AES-256-GCM, the message's id as associated data (a secret moved
 * to another row does not open), stored as iv ‖ tag ‖ ciphertext. The key never reaches the database.
 */
export function sealSecret(key: Buffer, id: string, secret: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(id));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

export function openSecret(key: Buffer, id: string, stored: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, stored.subarray(0, 12));
  decipher.setAAD(Buffer.from(id));
  decipher.setAuthTag(stored.subarray(12, 28));
  return Buffer.concat([decipher.update(stored.subarray(28)), decipher.final()]).toString('utf8');
}
