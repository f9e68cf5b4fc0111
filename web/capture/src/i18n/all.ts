// Every catalogue at once, for what is not the customer's first load: the portal's preview of the capture
// app and the tests. The capture app itself loads them one at a time (./index.ts).
import { ar } from './ar.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { hi } from './hi.js';
import type { Catalogue, Language } from './index.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { pt } from './pt.js';
import { tr } from './tr.js';

export const CATALOGUES: Record<Language, Catalogue> = { en, fr, de, es, it, pt, nl, pl, tr, ar, hi, ja };
