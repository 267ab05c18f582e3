const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;
// OOXML escapes characters XML cannot hold as _xHHHH_ (ECMA-376 22.9.2.19).
const OOXML_ESCAPE = /_x([0-9a-fA-F]{4})_/g;

function decodeEntity(_: string, name: string): string {
  switch (name) {
    case 'amp':
      return '&';
    case 'lt':
      return '<';
    case 'gt':
      return '>';
    case 'quot':
      return '"';
    case 'apos':
      return "'";
    default: {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
  }
}

/** XML character data -> text (entities and OOXML _xHHHH_ escapes decoded). */
export function xmlText(raw: string): string {
  let text = raw.indexOf('&') < 0 ? raw : raw.replace(ENTITY, decodeEntity);
  if (text.indexOf('_x') >= 0)
    text = text.replace(OOXML_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return text;
}

/** The value of one attribute in a start tag's attribute text, or undefined. */
export function attr(attributes: string, name: string): string | undefined {
  const at = attributes.indexOf(`${name}="`);
  if (at < 0) return undefined;
  // the character before must separate attributes (so r= does not match in ref=)
  if (at > 0 && !/\s/.test(attributes[at - 1]!)) {
    const again = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attributes);
    return again ? xmlText(again[1]!) : undefined;
  }
  const start = at + name.length + 2;
  const end = attributes.indexOf('"', start);
  return end < 0 ? undefined : xmlText(attributes.slice(start, end));
}

/** Concatenated text of every <t> element (rich text runs), phonetic runs (<rPh>) left out. */
export function runsText(xml: string): string {
  const body = xml.indexOf('<rPh') >= 0 ? xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : xml;
  let out = '';
  const re = /<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g;
  for (let m = re.exec(body); m; m = re.exec(body)) out += m[1];
  return xmlText(out);
}
