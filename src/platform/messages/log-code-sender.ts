import { Inject, Injectable } from '@nestjs/common';
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { APP_CONFIG, AppConfig } from '../config/config';
import type { CodeSender, Delivery } from './message.types';

/**
 * The default sender: appends one JSON line per code to ONE_TIME_CODE_LOG (mode 0600), a file of its own, so the
 * service's log (collected, shipped, shown to support) never carries a code. An operator without a gateway reads the
 * code there; the e2e suites and the doc test read it the same way. A notice is a line too, without a secret:
 * `{"at","notice","to","details"}`, `notice` naming its template.
 */
@Injectable()
export class LogCodeSender implements CodeSender {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async send(delivery: Delivery): Promise<void> {
    await mkdir(dirname(this.config.oneTimeCodeLog), { recursive: true, mode: 0o700 });
    const at = new Date().toISOString();
    const line = JSON.stringify(
      delivery.kind === 'notice'
        ? { at, notice: delivery.template, to: delivery.to, details: delivery.details }
        : {
            at,
            purpose: delivery.purpose,
            to: delivery.to,
            code: delivery.code,
            expiresAt: delivery.expiresAt.toISOString(),
            ...(delivery.details ? { details: delivery.details } : {}),
          },
    );
    await appendFile(this.config.oneTimeCodeLog, `${line}\n`, { mode: 0o600 });
  }
}
