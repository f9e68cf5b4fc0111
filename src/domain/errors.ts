// The error catalogue: every message a client can see, once. The texts integrators already code against
// are kept to the letter, quirks included ("Something Went Worng"; see docs/api.md#deliberate-quirks).
// docs/errors.md is generated from this table.

/** Which response body shape an error is rendered in (docs/api.md#error-bodies). */
export type Surface = 'auth' | 'upload' | 'link' | 'plain';

interface CatalogueEntry {
  status: number;
  message: string;
  surface: Surface;
  /** Why a client sees it; printed in docs/errors.md. */
  when: string;
}

export const catalogue = {
  // Authentication: docs/api.md#authenticate and docs/api.md#refresh.
  AUTH_INVALID_REQUEST: {
    status: 400,
    message: 'Invalid API key',
    surface: 'auth',
    when: 'The body is missing, not JSON, or lacks a valid `key`.',
  },
  AUTH_KEY_NOT_VALID: {
    status: 401,
    message: 'API Key not valid',
    surface: 'auth',
    when: 'The key is unknown, revoked or expired, or `client_id` is not its client.',
  },
  AUTH_TOKEN_NOT_VALID: {
    status: 401,
    message: 'Token not valid',
    surface: 'auth',
    when: '`POST /api/refresh` without a valid, unused `access_token`.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    message: 'Method not allowed',
    surface: 'auth',
    when: 'Any method other than POST on `/api/authenticate` or `/api/refresh`.',
  },
  AUTH_RATE_LIMITED: {
    status: 429,
    message: 'API call limit exceeded',
    surface: 'auth',
    when: 'Too many wrong API keys from one address, on any surface that takes one; `Retry-After` says when to try again.',
  },
  AUTH_INTERNAL: {
    status: 500,
    message: 'Internal server error',
    surface: 'auth',
    when: 'An unexpected failure while authenticating (logged with the request id).',
  },

  // Upload: docs/api.md#upload-errors and docs/api.md#limits.
  UPLOAD_UNAUTHORIZED: {
    status: 401,
    message: 'Unauthorized',
    surface: 'upload',
    when: 'Missing, malformed or expired bearer token.',
  },
  UPLOAD_TOO_MANY_IMAGES: {
    status: 400,
    message: 'Maximum 99 images upload possible',
    surface: 'upload',
    when: 'More than 99 images, counting `urls` and every member of `url_pairs`.',
  },
  UPLOAD_INVALID_EXTENSION: {
    status: 400,
    message: 'Invalid file type, only image or video allowed',
    surface: 'upload',
    when: 'A file extension outside the allowed list.',
  },
  UPLOAD_VIDEO_TOO_SMALL: {
    status: 400,
    message: 'Please upload video greater than 1 MB.',
    surface: 'upload',
    when: 'A video of 1 MB or less.',
  },
  UPLOAD_FILE_VIDEO_TOO_LARGE: {
    status: 400,
    message: 'Please upload video less than 100 MB.',
    surface: 'upload',
    when: 'A video file of 100 MB or more.',
  },
  UPLOAD_URL_VIDEO_TOO_LARGE: {
    status: 400,
    message: 'Please upload video less than 70 MB.',
    surface: 'upload',
    when: 'A video URL of 70 MB or more.',
  },
  UPLOAD_IMAGES_TOO_LARGE: {
    status: 400,
    message: 'Total image size must be 70 MB or less',
    surface: 'upload',
    when: 'URL images over 70 MB in total.',
  },
  UPLOAD_MIXED_KINDS: {
    status: 400,
    message: 'Images and videos cannot be mixed in one request',
    surface: 'upload',
    when: 'Images and videos in one request.',
  },
  UPLOAD_BAD_PAIR: {
    status: 400,
    message: 'Each url_pairs entry must contain exactly 2 images',
    surface: 'upload',
    when: 'A `url_pairs` entry without exactly two images.',
  },
  UPLOAD_IMAGE_TOO_LARGE: {
    status: 400,
    message: 'Please upload image less than 70 MB.',
    surface: 'upload',
    when: "One image file of 70 MB or more (walkaround's own limit; keeps one request bounded).",
  },
  UPLOAD_TOO_MANY_VIDEOS: {
    status: 400,
    message: 'Maximum 10 videos upload possible',
    surface: 'upload',
    when: "More than 10 videos in one request (walkaround's own limit; keeps one request bounded).",
  },
  UPLOAD_FIELD_REQUIRED: {
    status: 400,
    message: '<field> is required',
    surface: 'upload',
    when: 'A required field (`session`, `case_id`, `urls`, `files`, `type`) is missing or not of its type.',
  },
  UPLOAD_TYPE_NOT_URLS: {
    status: 400,
    message: 'type must be urls',
    surface: 'upload',
    when: 'A JSON upload whose `type` is not `urls`.',
  },
  UPLOAD_TYPE_NOT_FILE: {
    status: 400,
    message: 'type must be file',
    surface: 'upload',
    when: 'A multipart upload whose `type` is not `file`.',
  },
  UPLOAD_INVALID_FIELD: {
    status: 400,
    message: '<field> is invalid',
    surface: 'upload',
    when: 'An optional field of the wrong type or form (for example a `callback_url` that is not an http(s) URL).',
  },
  UPLOAD_FETCH_FAILED: {
    status: 400,
    message: 'Could not fetch <url>',
    surface: 'upload',
    when: 'A media URL that could not be fetched: refused address, error status, timeout, too large.',
  },
  UPLOAD_CALLBACK_PRIVATE: {
    status: 400,
    message:
      'callback_url points to a private address (<host>): refused unless the operator sets ALLOW_PRIVATE_NETWORKS=true; to receive webhooks on this machine, run walkaround webhooks listen',
    surface: 'upload',
    when: 'A `callback_url` whose host is, or resolves to, a private, loopback or link-local address while `ALLOW_PRIVATE_NETWORKS` is off, unless it names a live local listener of the client (`walkaround webhooks listen`, ADR 12).',
  },
  UPLOAD_CALLBACK_REQUIRED: {
    status: 400,
    message: 'please provide callback_url',
    surface: 'upload',
    when: 'No `callback_url` and the client has no default webhook URL.',
  },
  UPLOAD_SESSION_USED: {
    status: 400,
    message: 'please generate new token and session',
    surface: 'upload',
    when: "The session is not the token's, or was used already.",
  },
  UPLOAD_UNSUPPORTED_MEDIA: {
    status: 415,
    message: 'unsupported file type only images or videos',
    surface: 'upload',
    when: "Content that is not an image or video, or not of its extension's kind; a body neither JSON nor multipart.",
  },
  UPLOAD_QUOTA_EXCEEDED: {
    status: 429,
    message: 'API call limit exceeded',
    surface: 'upload',
    when: 'The client exceeded its upload quota; `Retry-After` says when to try again.',
  },
  UPLOAD_SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'ML servers are not available currently.',
    surface: 'upload',
    when: "Outside the client's service window, or the analysis backend is unhealthy; `Retry-After` is set.",
  },
  UPLOAD_MULTIPART_INVALID: {
    status: 400,
    message: 'multipart body is invalid',
    surface: 'upload',
    when: 'A multipart body without a boundary, with broken part headers, or cut before its closing boundary.',
  },
  UPLOAD_UNEXPECTED: {
    status: 404,
    message: 'Something Went Worng',
    surface: 'upload',
    when: 'Anything unexpected (logged with the request id).',
  },

  // Inspection links: docs/api.md#superapptoken.
  LINK_KEY_MISSING: {
    status: 403,
    message: 'Forbidden: Invalid Request',
    surface: 'link',
    when: 'No `apiKey` in the body or `x-api-key` header.',
  },
  LINK_KEY_INVALID: {
    status: 401,
    message: 'Unauthorized: Invalid API Key',
    surface: 'link',
    when: 'The API key is wrong, revoked or expired.',
  },
  LINK_CLIENT_MISMATCH: {
    status: 400,
    message: 'Client ID mismatch',
    surface: 'link',
    when: '`clientId` is not the account of the key.',
  },
  LINK_KEY_CHECK_FAILED: {
    status: 500,
    message: 'Internal Server Error: During API KEY Verification',
    surface: 'link',
    when: 'An internal failure while checking the key.',
  },
  LINK_INTERNAL: {
    status: 500,
    message: 'Internal server error',
    surface: 'link',
    when: 'Any other unexpected failure.',
  },
  LINK_INVALID_PERSONA: {
    status: 400,
    message: 'Invalid personaId',
    surface: 'link',
    when: "`personaId` missing, not an integer, or not one of the key's client's personas.",
  },
  LINK_INVALID_PHONE: {
    status: 400,
    message: 'Invalid phone number',
    surface: 'link',
    when: '`userDetails.phone` is not a valid number in E.164 form (`+<country code><number>`).',
  },
  LINK_INVALID_EMAIL: {
    status: 400,
    message: 'Invalid email',
    surface: 'link',
    when: '`userDetails.email` is not an e-mail address.',
  },
  LINK_INVALID_FIELD: {
    status: 400,
    message: '<field> is invalid',
    surface: 'link',
    when: 'A field of the wrong type (for example `caseId` not a string, `inputMetaData` not an object).',
  },

  // The capture API behind a link (docs/api.md#capture-api): authorised by the link token alone.
  CAPTURE_LINK_INVALID: {
    status: 401,
    message: 'Link not valid',
    surface: 'plain',
    when: 'No link token in `Authorization: Bearer …`, or not a token the service issued.',
  },
  CAPTURE_LINK_EXPIRED: {
    status: 410,
    message: 'This link has expired',
    surface: 'plain',
    when: "The link's validity (the client's link TTL) has passed before it was submitted.",
  },
  CAPTURE_LINK_SUBMITTED: {
    status: 409,
    message: 'This inspection was already submitted',
    surface: 'plain',
    when: 'The link was submitted already: a token opens exactly one inspection.',
  },
  CAPTURE_UNKNOWN_STEP: {
    status: 400,
    message: 'Unknown step <step>',
    surface: 'plain',
    when: "An upload for a step the link's persona does not have.",
  },
  CAPTURE_WRONG_KIND: {
    status: 400,
    message: 'This step takes a <kind>',
    surface: 'plain',
    when: 'A video for a photo persona, or a photo for a video persona.',
  },
  CAPTURE_STEPS_MISSING: {
    status: 400,
    message: 'Missing required steps: <steps>',
    surface: 'plain',
    when: 'Submit before every required step has its media.',
  },
  CAPTURE_NOTHING_CAPTURED: {
    status: 400,
    message: 'Nothing was captured',
    surface: 'plain',
    when: 'Submit with no media at all.',
  },
  CAPTURE_TOO_MANY_UPLOADS: {
    status: 429,
    message: 'Too many unfinished uploads for this link',
    surface: 'plain',
    when: 'A third unfinished resumable upload for one step of a link (finish or delete one first).',
  },
  CAPTURE_UPLOAD_CONCAT: {
    status: 400,
    message: 'Upload-Concat is not supported: send each file as one upload',
    surface: 'plain',
    when: "A resumable upload with tus's `Upload-Concat` header (the concatenation extension is not offered).",
  },
  CAPTURE_BUSY: {
    status: 503,
    message: 'Quality checks are busy, try again shortly',
    surface: 'plain',
    when: 'Every quality-check slot is taken; `Retry-After` says when to try again.',
  },
  CAPTURE_IMAGE_REQUIRED: {
    status: 400,
    message: 'A JPEG, PNG or HEIC image is required',
    surface: 'plain',
    when: 'A quality check whose body is not an image, or an image that does not decode.',
  },
  CAPTURE_ORIGINAL_SIZE_INVALID: {
    status: 400,
    message: 'Invalid original size: <reason>',
    surface: 'plain',
    when: 'A quality check whose `width` and `height` are not both whole numbers from 1 to 100000, or are smaller than the photo sent.',
  },
  CAPTURE_METADATA_INVALID: {
    status: 400,
    message: 'Invalid capture metadata: <field>',
    surface: 'plain',
    when: 'An upload whose `Upload-Metadata` carries a malformed `source`, `captured_at`, `orientation`, `latitude`, `longitude` or `accuracy` (or only one of `latitude` and `longitude`).',
  },
  CAPTURE_GALLERY_NOT_ALLOWED: {
    status: 400,
    message: 'Photos and videos from the gallery are not allowed for this inspection',
    surface: 'plain',
    when: "An upload with `source` `gallery` for a persona that does not allow the phone's gallery.",
  },

  // Personas API.
  PERSONA_INVALID: {
    status: 400,
    message: '<reason>',
    surface: 'plain',
    when: 'A persona that breaks a rule (unknown language, no steps, duplicate step ids, video bounds).',
  },
  PERSONA_LOGO_INVALID: {
    status: 415,
    message: 'A logo must be a PNG, JPEG or WebP image',
    surface: 'plain',
    when: 'A persona logo uploaded in the portal that is not a whole PNG, JPEG or WebP image (SVG is not taken).',
  },
  PERSONA_LOGO_TOO_LARGE: {
    status: 413,
    message: 'A logo must be at most 2 MB',
    surface: 'plain',
    when: 'A persona logo file larger than 2 MB.',
  },

  // Operator actions (the CLI today): they name what is wrong, since an operator may see every client.
  CLIENT_NOT_FOUND: {
    status: 404,
    message: 'No client with id <id>',
    surface: 'plain',
    when: 'An operator action on a client that does not exist.',
  },
  CLIENT_INVALID: {
    status: 400,
    message: '<reason>',
    surface: 'plain',
    when: 'A client setting that breaks a rule (empty name, webhook URL: its form, or a private address while `ALLOW_PRIVATE_NETWORKS` is off; quota, service window, time zone, link validity, event types).',
  },
  API_KEY_PREFIX_NOT_FOUND: {
    status: 404,
    message: 'No live key with prefix <prefix>',
    surface: 'plain',
    when: "Revoking a key by a prefix that matches none of the client's live keys.",
  },
  USER_INVALID: {
    status: 400,
    message: '<reason>',
    surface: 'plain',
    when: 'A portal user that breaks a rule (short password, role and client, e-mail taken).',
  },
  RATE_CARD_INVALID: {
    status: 400,
    message: 'Rate card is invalid: <reason>',
    surface: 'plain',
    when: 'A rate card (portal API, CLI) that does not follow its schema, with an unknown currency, or a prices CSV line that is not `part,price`.',
  },
  VEHICLE_NOT_FOUND: {
    status: 404,
    message: 'No vehicle <id>',
    surface: 'plain',
    when: 'Merging vehicles when one of them does not exist.',
  },
  VEHICLES_NOT_MERGEABLE: {
    status: 400,
    message: 'Vehicles <from> and <into> cannot be merged: <reason>',
    surface: 'plain',
    when: 'Merging a vehicle into itself, or into a vehicle of another client.',
  },
  INSPECTION_NOT_FOUND: {
    status: 404,
    message: 'No inspection <id>',
    surface: 'plain',
    when: 'Re-analysis of an inspection that does not exist.',
  },
  OUTBOX_MESSAGE_NOT_FOUND: {
    status: 404,
    message: 'No outbox message with id <id>',
    surface: 'plain',
    when: 'Sending an outbox message that does not exist.',
  },
  OUTBOX_NOT_HELD: {
    status: 409,
    message: '<reason>',
    surface: 'plain',
    when: 'Sending an outbox message that is not held, or whose channel still has no provider.',
  },
  OUTBOX_NOT_RESENDABLE: {
    status: 409,
    message: '<reason>',
    surface: 'plain',
    when: 'Re-sending an outbox message that has not failed, whose link or set-password link can no longer be used, or whose channel has no provider.',
  },

  // The results portal: docs/portal.md.
  PORTAL_SIGN_IN_FAILED: {
    status: 401,
    message: 'E-mail or password is wrong',
    surface: 'plain',
    when: 'Sign-in with an unknown e-mail, a wrong password or a disabled account (one answer for all three).',
  },
  PORTAL_SIGN_IN_LIMITED: {
    status: 429,
    message: 'Too many sign-in attempts, try again later',
    surface: 'plain',
    when: 'Too many failed sign-ins for this account or from this address; `Retry-After` says when to try again.',
  },
  PORTAL_SIGNED_OUT: {
    status: 401,
    message: 'Please sign in',
    surface: 'plain',
    when: 'A portal API call without a live session (never signed in, signed out, idle or past its end).',
  },
  PORTAL_CSRF: {
    status: 403,
    message: 'Missing or wrong CSRF token',
    surface: 'plain',
    when: "A state-changing portal call without the session's token in `x-csrf-token`.",
  },
  PORTAL_FORBIDDEN: {
    status: 403,
    message: 'Your role does not allow this',
    surface: 'plain',
    when: 'A client viewer asking to change something (review, share), or a client user asking for what only operators do.',
  },
  PORTAL_REVIEW_STALE: {
    status: 409,
    message: 'The result changed since you opened it; reload and review again',
    surface: 'plain',
    when: 'A review saved against a result version that is no longer the latest.',
  },
  PORTAL_REVIEW_INVALID: {
    status: 400,
    message: 'Review is invalid: <reason>',
    surface: 'plain',
    when: 'A review naming a media item the inspection does not have, or a damage box outside the photo.',
  },
  PORTAL_NOT_ANALYSED: {
    status: 409,
    message: 'The inspection has no result yet',
    surface: 'plain',
    when: 'A review, report or share of an inspection that is not analysed yet.',
  },
  RANGE_NOT_SATISFIABLE: {
    status: 416,
    message: 'Range not satisfiable: the file has <size> bytes',
    surface: 'plain',
    when: 'A `Range` request for bytes a media file does not have.',
  },
  SHARE_LINK_GONE: {
    status: 410,
    message: 'This link has expired or was revoked',
    surface: 'plain',
    when: 'A share link past its end or revoked.',
  },
  PASSWORD_LINK_UNKNOWN: {
    status: 404,
    message: 'This link is not valid: check that you opened all of it, or ask an administrator for a new one',
    surface: 'plain',
    when: 'A set-password link whose token the service never issued (or not whole).',
  },
  PASSWORD_LINK_GONE: {
    status: 410,
    message: '<reason>',
    surface: 'plain',
    when: 'A set-password link already used, replaced by a newer one, past its end, or of a disabled account.',
  },
  PASSWORD_LINK_LIMITED: {
    status: 429,
    message: 'Too many attempts with set-password links, try again later',
    surface: 'plain',
    when: 'Too many unknown or closed set-password links from this address; `Retry-After` says when to try again.',
  },
  WEBHOOK_TEST_NO_URL: {
    status: 409,
    message: 'The client has no webhook URL: set one, then send a test event',
    surface: 'plain',
    when: 'A test event for a client without a webhook URL.',
  },
  WEBHOOK_TEST_RATE_LIMITED: {
    status: 429,
    message: 'Too many test events, try again later',
    surface: 'plain',
    when: 'More than 60 test events for one client in a minute; `Retry-After` says when to try again.',
  },
  INVITATIONS_RATE_LIMITED: {
    status: 429,
    message: 'Too many invitations, try again later',
    surface: 'plain',
    when: 'More than 30 invitations by one client admin in an hour (e-mail addresses are unique in the installation, so each invitation says whether one is taken: the limit bounds that); `Retry-After` says when to try again.',
  },
  API_KEYS_TOO_MANY: {
    status: 409,
    message:
      'A client may have at most <max> live API keys: revoke one first (a rotation keeps the others live for its grace period; a grace of 0 stops them at once)',
    surface: 'plain',
    when: 'A new API key, made or rotated, that would leave a client more live keys than allowed (the keys of a rotation live on for its grace period).',
  },

  // Everything else (health, docs, key set).
  RESEND_RATE_LIMITED: {
    status: 429,
    message: 'Too many re-sends, try again later',
    surface: 'plain',
    when: 'More than 60 re-sends by one client in a minute; `Retry-After` says when to try again.',
  },
  REQUEST_BODY_TIMEOUT: {
    status: 408,
    message: 'Request body timeout',
    surface: 'plain',
    when: 'The request body stopped arriving: less than 16 KiB of it in `BODY_TIMEOUT`; the connection is closed.',
  },
  BAD_REQUEST: {
    status: 400,
    message: 'Bad request',
    surface: 'plain',
    when: 'A request that fails its schema.',
  },
  BODY_TOO_LARGE: {
    status: 413,
    message: 'The request body is too large',
    surface: 'plain',
    when: "A body over its route's size limit (1 MB of JSON unless the route says otherwise; a persona logo 4 MB).",
  },
  API_KEY_REQUIRED: {
    status: 401,
    message: 'API Key not valid',
    surface: 'plain',
    when: 'A read API (`/api/inspections/…`) without a live API key in `x-api-key`.',
  },
  NOT_FOUND: {
    status: 404,
    message: 'Not found',
    surface: 'plain',
    when: "No such route, or no such inspection for the caller's client.",
  },
  INTERNAL: {
    status: 500,
    message: 'Internal server error',
    surface: 'plain',
    when: 'An unexpected failure.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof catalogue;

/** A failure a client may see: a catalogue entry plus what is needed to render it. */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly options: {
      retryAfterSeconds?: number;
      /** Values of the entry's `<name>` placeholders. */
      params?: Record<string, string>;
      cause?: unknown;
    } = {},
  ) {
    super(renderMessage(code, options.params), { cause: options.cause });
    this.status = catalogue[code].status;
  }
}

/** The entry's message with its `<name>` placeholders filled in. */
export function renderMessage(code: ErrorCode, params: Record<string, string> = {}): string {
  return catalogue[code].message.replace(/<(\w+)>/g, (whole, name: string) => params[name] ?? whole);
}

/** The entry answered for an error no rule foresaw, per surface (docs/api.md#error-bodies). */
export const unexpectedErrorFor: Record<Surface, ErrorCode> = {
  auth: 'AUTH_INTERNAL',
  upload: 'UPLOAD_UNEXPECTED',
  link: 'LINK_INTERNAL',
  plain: 'INTERNAL',
};

/** The entry answered for a request that fails its schema, per surface (the upload and link surfaces
 * map their fields to their own messages before this fallback). */
export const invalidRequestFor: Record<Surface, ErrorCode> = {
  auth: 'AUTH_INVALID_REQUEST',
  upload: 'BAD_REQUEST',
  link: 'BAD_REQUEST',
  plain: 'BAD_REQUEST',
};
