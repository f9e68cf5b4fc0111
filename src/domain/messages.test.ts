import { describe, expect, it } from 'vitest';
import { emailHtml, formatExpiry, renderLinkEmail, renderLinkSms } from './messages.js';
import { SUPPORTED_LANGUAGES } from './personas.js';

const context = {
  clientName: 'Acme Leasing',
  url: 'https://capture.example.com/#tok_abc123',
  expiresAt: Date.UTC(2025, 10, 26, 11, 0),
  language: 'en',
};

describe('link message templates', () => {
  it('renders the English SMS with the client, the link and the expiry in UTC', () => {
    expect(renderLinkSms(context)).toEqual({
      language: 'en',
      body: 'Acme Leasing: please complete your vehicle inspection here: https://capture.example.com/#tok_abc123 (valid until 26 November 2025 at 11:00 UTC)',
    });
  });

  it('renders the English e-mail: subject, text and an HTML part with the link', () => {
    const email = renderLinkEmail(context);
    expect(email.subject).toBe('Acme Leasing: your vehicle inspection link');
    expect(email.text).toContain('Acme Leasing invites you');
    expect(email.text).toContain('\n\nhttps://capture.example.com/#tok_abc123\n\n');
    expect(email.text).toContain('valid until 26 November 2025 at 11:00 UTC.');
    expect(email.html).toContain(
      '<a href="https://capture.example.com/#tok_abc123">https://capture.example.com/#tok_abc123</a>',
    );
    expect(email.html).toContain('<html lang="en">');
  });

  it.each([
    ['fr', "votre lien d'inspection", 'valable jusqu', '26 novembre 2025'],
    ['de', 'Ihr Link zur Fahrzeuginspektion', 'gültig bis', '26. November 2025'],
    ['es', 'su enlace de inspección', 'válido hasta', '26 de noviembre de 2025'],
    ['it', "il link per l'ispezione", 'valido fino al', '26 novembre 2025'],
    ['pt', 'o seu link de inspeção', 'válido até', '26 de novembro de 2025'],
    ['nl', 'uw link voor de voertuiginspectie', 'geldig tot', '26 november 2025'],
    ['pl', 'link do inspekcji', 'ważne do', '26 listopada 2025'],
    ['tr', 'araç muayenesi bağlantınız', 'tarihine kadar geçerli', '26 Kasım 2025'],
    ['ar', 'رابط فحص مركبتك', 'صالح حتى', '26 نوفمبر 2025'],
    ['hi', 'वाहन निरीक्षण का लिंक', 'तक मान्य', '26 नवंबर 2025'],
    ['ja', '車両点検のリンク', 'まで有効', '2025年11月26日'],
  ])('speaks %s', (language, subject, validity, date) => {
    const sms = renderLinkSms({ ...context, language });
    const email = renderLinkEmail({ ...context, language });
    expect(sms.language).toBe(language);
    expect(sms.body).toContain(context.url);
    expect(sms.body).toContain(validity);
    expect(sms.body).toContain(date);
    expect(email.subject).toContain(subject);
    expect(email.text).toContain(context.url);
    expect(email.text).toContain(date);
    expect(email.text).toContain('Acme Leasing');
  });

  it('has every supported language, each with its own words', () => {
    const bodies = SUPPORTED_LANGUAGES.map((language) => renderLinkEmail({ ...context, language }).text);
    expect(new Set(bodies).size).toBe(SUPPORTED_LANGUAGES.length);
  });

  it('marks the Arabic e-mail right to left', () => {
    expect(renderLinkEmail({ ...context, language: 'ar' }).html).toContain('<html lang="ar" dir="rtl">');
  });

  it('falls back to English for a language it does not have', () => {
    expect(renderLinkSms({ ...context, language: 'xx' })).toEqual(renderLinkSms(context));
  });

  it('keeps a client name on one line and escapes it in HTML', () => {
    const email = renderLinkEmail({ ...context, clientName: 'Bad\r\nBcc: x@y.z <b>' });
    expect(email.subject).toBe('Bad Bcc: x@y.z <b>: your vehicle inspection link');
    expect(email.html).toContain('Bad Bcc: x@y.z &lt;b&gt;');
    expect(email.html).not.toContain('<b>');
  });

  it('derives the same HTML from the stored text as at rendering', () => {
    const email = renderLinkEmail({ ...context, language: 'de' });
    expect(emailHtml(email.text, 'de')).toBe(email.html);
  });

  it('formats the expiry in UTC whatever the local zone', () => {
    expect(formatExpiry(Date.UTC(2026, 0, 2, 23, 30), 'en')).toBe('2 January 2026 at 23:30 UTC');
  });
});
