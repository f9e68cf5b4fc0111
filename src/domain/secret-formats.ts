// Shapes of the secrets the service hands out. A visible prefix lets a leaked secret be recognised
// (and found by secret scanners).
export const API_KEY_PREFIX = 'wk_live_';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** How many characters of a key listings show. */
export const API_KEY_VISIBLE_CHARS = API_KEY_PREFIX.length + 6;

/** 24 random bytes as base64url: 32 characters. */
export const API_KEY_PATTERN = /^wk_live_[A-Za-z0-9_-]{32}$/;

export const looksLikeApiKey = (text: string): boolean => API_KEY_PATTERN.test(text);
export const visiblePrefix = (key: string): string => key.slice(0, API_KEY_VISIBLE_CHARS);
