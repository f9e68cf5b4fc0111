// The texts of link messages (docs/messages.md#templates): an SMS and an e-mail inviting the customer to the
// capture app, in each language a persona can have. Pure: no I/O. The outbox keeps the rendered text; the
// e-mail's HTML part is derived from that text when it is sent, so the stored row is exactly what goes out.
import { SUPPORTED_LANGUAGES } from './personas.js';

export type MessageLanguage = (typeof SUPPORTED_LANGUAGES)[number];

export interface LinkMessageContext {
  /** Display name of the client, shown as the sender of the invitation. */
  clientName: string;
  /** The capture link, `{SUPERAPP_URL}/#<token>`. */
  url: string;
  /** Epoch ms. */
  expiresAt: number;
  /** The persona's language; anything unsupported falls back to English. */
  language: string;
}

export interface RenderedSms {
  language: MessageLanguage;
  body: string;
}

export interface RenderedEmail {
  language: MessageLanguage;
  subject: string;
  text: string;
  html: string;
}

interface Texts {
  /** BCP 47 locale of the expiry date. */
  locale: string;
  sms: (c: string, url: string, until: string) => string;
  subject: (c: string) => string;
  email: (c: string, url: string, until: string) => string[];
}

const TEXTS: Record<MessageLanguage, Texts> = {
  en: {
    locale: 'en-GB',
    sms: (c, url, until) =>
      `${c}: please complete your vehicle inspection here: ${url} (valid until ${until})`,
    subject: (c) => `${c}: your vehicle inspection link`,
    email: (c, url, until) => [
      'Hello,',
      `${c} invites you to complete the inspection of your vehicle. Open this link on your phone and follow the steps:`,
      url,
      `The link is valid until ${until}.`,
      'If you did not expect this message, you can ignore it.',
    ],
  },
  fr: {
    locale: 'fr-FR',
    sms: (c, url, until) =>
      `${c} : réalisez l'inspection de votre véhicule ici : ${url} (valable jusqu'au ${until})`,
    subject: (c) => `${c} : votre lien d'inspection du véhicule`,
    email: (c, url, until) => [
      'Bonjour,',
      `${c} vous invite à réaliser l'inspection de votre véhicule. Ouvrez ce lien sur votre téléphone et suivez les étapes :`,
      url,
      `Le lien est valable jusqu'au ${until}.`,
      "Si vous n'attendiez pas ce message, vous pouvez l'ignorer.",
    ],
  },
  de: {
    locale: 'de-DE',
    sms: (c, url, until) =>
      `${c}: Bitte führen Sie hier die Inspektion Ihres Fahrzeugs durch: ${url} (gültig bis ${until})`,
    subject: (c) => `${c}: Ihr Link zur Fahrzeuginspektion`,
    email: (c, url, until) => [
      'Guten Tag,',
      `${c} bittet Sie, die Inspektion Ihres Fahrzeugs durchzuführen. Öffnen Sie diesen Link auf Ihrem Smartphone und folgen Sie den Schritten:`,
      url,
      `Der Link ist gültig bis ${until}.`,
      'Wenn Sie diese Nachricht nicht erwartet haben, können Sie sie ignorieren.',
    ],
  },
  es: {
    locale: 'es-ES',
    sms: (c, url, until) =>
      `${c}: realice la inspección de su vehículo aquí: ${url} (válido hasta el ${until})`,
    subject: (c) => `${c}: su enlace de inspección del vehículo`,
    email: (c, url, until) => [
      'Hola:',
      `${c} le invita a realizar la inspección de su vehículo. Abra este enlace en su teléfono y siga los pasos:`,
      url,
      `El enlace es válido hasta el ${until}.`,
      'Si no esperaba este mensaje, puede ignorarlo.',
    ],
  },
  it: {
    locale: 'it-IT',
    sms: (c, url, until) =>
      `${c}: completa qui l'ispezione del tuo veicolo: ${url} (valido fino al ${until})`,
    subject: (c) => `${c}: il link per l'ispezione del tuo veicolo`,
    email: (c, url, until) => [
      'Buongiorno,',
      `${c} ti invita a completare l'ispezione del tuo veicolo. Apri questo link sul telefono e segui i passaggi:`,
      url,
      `Il link è valido fino al ${until}.`,
      'Se non aspettavi questo messaggio, puoi ignorarlo.',
    ],
  },
  pt: {
    locale: 'pt-PT',
    sms: (c, url, until) => `${c}: conclua aqui a inspeção do seu veículo: ${url} (válido até ${until})`,
    subject: (c) => `${c}: o seu link de inspeção do veículo`,
    email: (c, url, until) => [
      'Olá,',
      `A ${c} convida-o a fazer a inspeção do seu veículo. Abra este link no telemóvel e siga os passos:`,
      url,
      `O link é válido até ${until}.`,
      'Se não estava à espera desta mensagem, pode ignorá-la.',
    ],
  },
  nl: {
    locale: 'nl-NL',
    sms: (c, url, until) => `${c}: voer hier de inspectie van uw voertuig uit: ${url} (geldig tot ${until})`,
    subject: (c) => `${c}: uw link voor de voertuiginspectie`,
    email: (c, url, until) => [
      'Beste klant,',
      `${c} vraagt u de inspectie van uw voertuig uit te voeren. Open deze link op uw telefoon en volg de stappen:`,
      url,
      `De link is geldig tot ${until}.`,
      'Had u dit bericht niet verwacht? Dan kunt u het negeren.',
    ],
  },
  pl: {
    locale: 'pl-PL',
    sms: (c, url, until) => `${c}: wykonaj tutaj inspekcję swojego pojazdu: ${url} (ważne do ${until})`,
    subject: (c) => `${c}: link do inspekcji Twojego pojazdu`,
    email: (c, url, until) => [
      'Dzień dobry,',
      `${c} prosi o wykonanie inspekcji Twojego pojazdu. Otwórz ten link w telefonie i postępuj zgodnie z instrukcjami:`,
      url,
      `Link jest ważny do ${until}.`,
      'Jeśli ta wiadomość nie była przeznaczona dla Ciebie, możesz ją zignorować.',
    ],
  },
  tr: {
    locale: 'tr-TR',
    sms: (c, url, until) =>
      `${c}: aracınızın muayenesini buradan tamamlayın: ${url} (${until} tarihine kadar geçerli)`,
    subject: (c) => `${c}: araç muayenesi bağlantınız`,
    email: (c, url, until) => [
      'Merhaba,',
      `${c}, aracınızın muayenesini tamamlamanızı rica ediyor. Bu bağlantıyı telefonunuzda açın ve adımları izleyin:`,
      url,
      `Bağlantı ${until} tarihine kadar geçerlidir.`,
      'Bu mesajı beklemiyorsanız dikkate almayabilirsiniz.',
    ],
  },
  ar: {
    locale: 'ar',
    sms: (c, url, until) => `${c}: يُرجى إكمال فحص مركبتك من هنا: ${url} (صالح حتى ${until})`,
    subject: (c) => `${c}: رابط فحص مركبتك`,
    email: (c, url, until) => [
      'مرحبًا،',
      `تدعوك ${c} إلى إكمال فحص مركبتك. افتح هذا الرابط على هاتفك واتبع الخطوات:`,
      url,
      `الرابط صالح حتى ${until}.`,
      'إذا لم تكن تتوقع هذه الرسالة، يمكنك تجاهلها.',
    ],
  },
  hi: {
    locale: 'hi-IN',
    sms: (c, url, until) => `${c}: कृपया अपने वाहन का निरीक्षण यहाँ पूरा करें: ${url} (${until} तक मान्य)`,
    subject: (c) => `${c}: आपके वाहन निरीक्षण का लिंक`,
    email: (c, url, until) => [
      'नमस्ते,',
      `${c} आपको अपने वाहन का निरीक्षण पूरा करने के लिए आमंत्रित करता है। यह लिंक अपने फ़ोन पर खोलें और चरणों का पालन करें:`,
      url,
      `यह लिंक ${until} तक मान्य है।`,
      'अगर आपको इस संदेश की उम्मीद नहीं थी, तो आप इसे अनदेखा कर सकते हैं।',
    ],
  },
  ja: {
    locale: 'ja-JP',
    sms: (c, url, until) => `${c}：こちらから車両点検を行ってください：${url} （${until}まで有効）`,
    subject: (c) => `${c}：車両点検のリンク`,
    email: (c, url, until) => [
      'お客様',
      `${c}より、お車の点検のお願いです。スマートフォンでこのリンクを開き、手順に従ってください。`,
      url,
      `リンクの有効期限は${until}です。`,
      'このメッセージにお心当たりがない場合は、破棄してください。',
    ],
  },
};

export const messageLanguage = (language: string): MessageLanguage =>
  (SUPPORTED_LANGUAGES as readonly string[]).includes(language) ? (language as MessageLanguage) : 'en';

/**
 * The expiry in the reader's language, in UTC and saying so: a link message knows nothing of the
 * customer's time zone, and a wrong local time is worse than an explicit UTC one.
 */
export function formatExpiry(expiresAt: number, language: MessageLanguage): string {
  const format = new Intl.DateTimeFormat(TEXTS[language].locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return `${format.format(expiresAt)} UTC`;
}

export function renderLinkSms(context: LinkMessageContext): RenderedSms {
  const language = messageLanguage(context.language);
  const until = formatExpiry(context.expiresAt, language);
  return { language, body: TEXTS[language].sms(oneLine(context.clientName), context.url, until) };
}

export function renderLinkEmail(context: LinkMessageContext): RenderedEmail {
  const language = messageLanguage(context.language);
  const texts = TEXTS[language];
  const client = oneLine(context.clientName);
  const text = texts.email(client, context.url, formatExpiry(context.expiresAt, language)).join('\n\n');
  return { language, subject: texts.subject(client), text, html: emailHtml(text, language) };
}

/**
 * A simple HTML part for a plain-text e-mail: paragraphs at blank lines, web addresses as links,
 * everything else escaped.
 */
export function emailHtml(text: string, language: string): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((p) => `<p>${linkify(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  return [
    `<!doctype html>`,
    `<html lang="${escapeHtml(messageLanguage(language))}"${language === 'ar' ? ' dir="rtl"' : ''}>`,
    '<head><meta charset="utf-8"></head>',
    '<body style="font-family: sans-serif; line-height: 1.5">',
    paragraphs,
    '</body>',
    '</html>',
  ].join('\n');
}

function linkify(text: string): string {
  return text
    .split(/(https?:\/\/\S+)/)
    .map((part, i) => {
      const escaped = escapeHtml(part);
      return i % 2 === 1 ? `<a href="${escaped}">${escaped}</a>` : escaped;
    })
    .join('');
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A client name is operator input; line breaks would break a subject header or an SMS. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
