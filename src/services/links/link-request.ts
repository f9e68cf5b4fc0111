// Checks of a `POST /superappToken` body (docs/api.md#superapptoken), in the order the errors are answered:
// the key first (403, 401), then the client (400), then the persona, the phone and the e-mail.
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { AppError } from '../../domain/errors.js';

export interface LinkRequest {
  personaId: number;
  caseId: string | undefined;
  phone: string | undefined;
  email: string | undefined;
  inputMetaData: Record<string, unknown> | undefined;
  /** An inspection id the link's inspection is compared with; checked against the client by the caller. */
  compareWith: string | undefined;
}

type Body = Record<string, unknown>;

const E164 = /^\+[1-9]\d{1,14}$/;
const EMAIL = fullFormats.email as RegExp;

const isObject = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The API key of the request: `apiKey` in the body, else the `x-api-key` header. */
export function apiKeyOf(body: unknown, header: unknown): string | undefined {
  const fromBody = isObject(body) ? body.apiKey : undefined;
  if (typeof fromBody === 'string' && fromBody !== '') return fromBody;
  return typeof header === 'string' && header !== '' ? header : undefined;
}

/**
 * The request's fields once the key is known good (its client is `keyClientId`); throws the error of
 * the first bad field, as docs/api.md#superapptoken lists them.
 */
export function parseLinkRequest(body: unknown, keyClientId: string): LinkRequest {
  const fields: Body = isObject(body) ? body : {};
  const { clientId } = fields;
  if (clientId !== undefined && clientId !== null && clientId !== '' && clientId !== keyClientId)
    throw new AppError('LINK_CLIENT_MISMATCH');
  const personaId = integerOf(fields.personaId);
  if (personaId === undefined) throw new AppError('LINK_INVALID_PERSONA');
  const details = fields.userDetails ?? {};
  if (!isObject(details)) throw invalid('userDetails');
  const phone = optionalText(details, 'phone', 'userDetails.phone');
  if (phone !== undefined && !isE164(phone)) throw new AppError('LINK_INVALID_PHONE');
  const email = optionalText(details, 'email', 'userDetails.email');
  if (email !== undefined && !(email.length <= 254 && EMAIL.test(email)))
    throw new AppError('LINK_INVALID_EMAIL');
  const meta = fields.inputMetaData;
  if (meta !== undefined && meta !== null && !isMetaData(meta)) throw invalid('inputMetaData');
  return {
    personaId,
    caseId: optionalText(fields, 'caseId'),
    phone,
    email,
    inputMetaData: isObject(meta) ? meta : undefined,
    compareWith: optionalText(fields, 'compare_with'),
  };
}

/**
 * Bounds of `inputMetaData`: the documented fields (docs/api.md#superapptoken) and a few of the
 * integrator's own, all plain values.
 */
const META_MAX_FIELDS = 50;
const META_MAX_KEY = 100;
const META_MAX_TEXT = 1000;

function isMetaData(value: unknown): value is Body {
  if (!isObject(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length <= META_MAX_FIELDS &&
    entries.every(
      ([key, field]) =>
        key.length <= META_MAX_KEY &&
        (field === null ||
          typeof field === 'boolean' ||
          (typeof field === 'number' && Number.isFinite(field)) ||
          (typeof field === 'string' && field.length <= META_MAX_TEXT)),
    )
  );
}

/** An integer, also when sent as a string of digits (callers of the older service often do). */
function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value)) return integerOf(Number(value));
  return undefined;
}

function isE164(phone: string): boolean {
  if (!E164.test(phone)) return false;
  const parsed = parsePhoneNumberFromString(phone);
  return parsed !== undefined && parsed.isValid() && parsed.number === phone;
}

/** A string field; absent, null and '' count as not given. */
function optionalText(fields: Body, key: string, name = key): string | undefined {
  const value = fields[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 1000) throw invalid(name);
  return value;
}

const invalid = (field: string) => new AppError('LINK_INVALID_FIELD', { params: { field } });
