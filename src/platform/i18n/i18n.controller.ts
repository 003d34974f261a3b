import { ApiParam, Param, Route, Routes } from '../http';
import { ApiOkResponse } from '@nestjs/swagger';
import { ApiError } from '../common/api-error';
import { ErrorCode, ERRORS } from '../common/errors';

/** Locales with their own messages; any other answers English. */
const MESSAGES: Record<string, Partial<Record<ErrorCode, string>>> = { en: {} };

@Routes('i18n')
export class I18nController {
  /** Every error `code` the service can answer, with its message: clients translate errors by code. Unknown locales fall back to `en`. */
  @Route('GET', 'export/:file', {
    summary: 'Error messages by code, for a locale',
    access: 'public',
    errors: [['exception.not_found', 'not `<locale>.json`']],
  })
  @ApiParam({ name: 'file', description: 'The locale with `.json`, e.g. `en.json`', example: 'en.json' })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: { type: 'string' } } })
  exportMessages(@Param('file') file: string): Record<string, string> {
    const match = /^([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?)\.json$/.exec(file);
    if (!match) throw new ApiError('exception.not_found', 'Ask for <locale>.json, e.g. en.json');
    const locale = MESSAGES[match[1].toLowerCase()] ?? MESSAGES.en;
    return Object.fromEntries((Object.keys(ERRORS) as ErrorCode[]).map((code) => [code, locale[code] ?? ERRORS[code].message]));
  }
}
