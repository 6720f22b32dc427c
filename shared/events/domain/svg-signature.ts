/**
 * Sanitising an SVG signature. The input is parsed by a small strict XML reader and
 * written out again from an allowlist: only drawing elements and presentation
 * attributes survive, so what comes out is safe by construction, whatever the input
 * tried (scripts, event handlers, `javascript:` or external references, foreignObject,
 * CSS). What cannot be read as one well-formed `<svg>` document, declares a DOCTYPE or
 * entities (XXE, billion laughs), or has nothing drawable left is refused.
 */
export class UnsafeSvg extends Error {}

export interface SanitisedSvg {
  svg: string;
  /** What was dropped, e.g. `<script>`, `onload`, `href on <use>`: for logs and tests. */
  removed: string[];
}

export const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const MAX_DEPTH = 32;
const MAX_ELEMENTS = 10_000;

const DRAWABLE = new Set(['path', 'line', 'polyline', 'polygon', 'rect', 'circle', 'ellipse', 'text']);
const ALLOWED_ELEMENTS = new Set(['svg', 'g', 'title', 'desc', 'tspan', ...DRAWABLE]);
/** Elements whose text content is kept; elsewhere text is only indentation. */
const TEXT_ELEMENTS = new Set(['text', 'tspan', 'title', 'desc']);

const ALLOWED_ATTRIBUTES = new Set([
  // geometry
  'd',
  'points',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'dx',
  'dy',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'transform',
  'version',
  // presentation
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'opacity',
  'vector-effect',
  'shape-rendering',
  'clip-rule',
  // text
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
]);

/** Values that fetch or run something: `url(...)` (external or not), script schemes, old IE CSS. */
const UNSAFE_VALUE = /url\s*\(|javascript|vbscript|data\s*:|expression\s*\(|[<>]/i;
const MAX_ATTRIBUTE_LENGTH = 64 * 1024;

interface Element {
  name: string;
  attributes: [string, string][];
  children: Node[];
}
type Node = Element | string;

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITY = /&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z]+);/g;
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  if (/&(?!(#x[0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z]+);)/.test(text))
    throw new UnsafeSvg('A bare "&" is not allowed in XML.');
  return text.replace(ENTITY, (_match, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        throw new UnsafeSvg(`&${body}; is not a character.`);
      return String.fromCodePoint(code);
    }
    const value = NAMED_ENTITIES[body];
    if (value === undefined) throw new UnsafeSvg(`Unknown entity &${body};.`);
    return value;
  });
}

/** A strict reader for the XML subset an SVG drawing needs; anything else throws UnsafeSvg. */
function parse(input: string): Element {
  let at = 0;
  let root: Element | undefined;
  const stack: Element[] = [];
  let elements = 0;

  const fail = (message: string): never => {
    throw new UnsafeSvg(`${message} (at character ${at}).`);
  };
  const skipPast = (terminator: string, what: string) => {
    const end = input.indexOf(terminator, at);
    if (end < 0) fail(`Unterminated ${what}`);
    const body = input.slice(at, end);
    at = end + terminator.length;
    return body;
  };

  while (at < input.length) {
    const lt = input.indexOf('<', at);
    const text = input.slice(at, lt < 0 ? input.length : lt);
    if (text) {
      const current = stack.at(-1);
      if (!current) {
        if (text.trim()) fail('Text outside the <svg> element');
      } else {
        current.children.push(decodeEntities(text));
      }
    }
    if (lt < 0) break;
    at = lt;

    if (input.startsWith('<!--', at)) {
      at += 4;
      skipPast('-->', 'comment');
    } else if (input.startsWith('<![CDATA[', at)) {
      at += 9;
      const data = skipPast(']]>', 'CDATA section');
      const current = stack.at(-1) ?? fail('CDATA outside the <svg> element');
      current.children.push(data);
    } else if (input.startsWith('<!', at)) {
      fail('DOCTYPE and entity declarations are not allowed');
    } else if (input.startsWith('<?', at)) {
      // The XML declaration and processing instructions (xml-stylesheet!) are dropped.
      at += 2;
      skipPast('?>', 'processing instruction');
    } else if (input.startsWith('</', at)) {
      at += 2;
      const name = NAME.exec(input.slice(at))?.[0] ?? fail('Bad end tag');
      at += name.length;
      while (/\s/.test(input[at] ?? '')) at++;
      if (input[at] !== '>') fail('Bad end tag');
      at++;
      const open = stack.pop();
      if (!open || open.name !== name) fail(`</${name}> does not close the open element`);
    } else {
      at += 1;
      const name = NAME.exec(input.slice(at))?.[0] ?? fail('Bad start tag');
      at += name.length;
      const element: Element = { name, attributes: [], children: [] };
      const seen = new Set<string>();
      for (;;) {
        const spaceStart = at;
        while (/\s/.test(input[at] ?? '')) at++;
        if (input.startsWith('/>', at) || input[at] === '>') break;
        if (at === spaceStart) fail(`Attributes of <${name}> must be separated by white space`);
        const attribute = NAME.exec(input.slice(at))?.[0] ?? fail(`Bad attribute in <${name}>`);
        at += attribute.length;
        while (/\s/.test(input[at] ?? '')) at++;
        if (input[at] !== '=') fail(`Attribute ${attribute} of <${name}> has no value`);
        at++;
        while (/\s/.test(input[at] ?? '')) at++;
        const quote = input[at];
        if (quote !== '"' && quote !== "'") fail(`The value of ${attribute} must be quoted`);
        at++;
        const raw = skipPast(quote!, `value of ${attribute}`);
        if (raw.includes('<')) fail(`"<" in the value of ${attribute}`);
        if (seen.has(attribute)) fail(`Attribute ${attribute} appears twice on <${name}>`);
        seen.add(attribute);
        element.attributes.push([attribute, decodeEntities(raw)]);
      }
      const selfClosing = input.startsWith('/>', at);
      at += selfClosing ? 2 : 1;
      if (++elements > MAX_ELEMENTS) fail(`More than ${MAX_ELEMENTS} elements`);
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else if (root) fail('More than one root element');
      else root = element;
      if (!selfClosing) {
        stack.push(element);
        if (stack.length > MAX_DEPTH) fail(`Elements nested deeper than ${MAX_DEPTH}`);
      }
    }
  }
  if (stack.length) fail(`<${stack.at(-1)!.name}> is not closed`);
  if (!root) throw new UnsafeSvg('No <svg> element found.');
  return root;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');

/** Keeps the allowed attributes whose values are inert; records the rest in `removed`. */
function safeAttributes(element: Element, removed: string[]): [string, string][] {
  const kept: [string, string][] = [];
  for (const [name, value] of element.attributes) {
    if (name === 'xmlns') {
      if (element.name === 'svg' && value === SVG_NAMESPACE) continue; // written again below
      removed.push(`xmlns="${value}" on <${element.name}>`);
    } else if (!ALLOWED_ATTRIBUTES.has(name)) {
      removed.push(/^on/i.test(name) ? name : `${name} on <${element.name}>`);
    } else if (UNSAFE_VALUE.test(value) || value.length > MAX_ATTRIBUTE_LENGTH) {
      removed.push(`${name}="${value.slice(0, 40)}" on <${element.name}>`);
    } else {
      kept.push([name, value]);
    }
  }
  return kept;
}

function write(element: Element, removed: string[], counts: { drawable: number }, isRoot: boolean): string {
  const attributes = safeAttributes(element, removed);
  if (isRoot) attributes.unshift(['xmlns', SVG_NAMESPACE]);
  if (DRAWABLE.has(element.name)) counts.drawable++;
  const children = element.children
    .map((child) => {
      if (typeof child === 'string') return TEXT_ELEMENTS.has(element.name) ? escapeText(child) : '';
      if (!ALLOWED_ELEMENTS.has(child.name) || child.name === 'svg') {
        removed.push(`<${child.name}>`);
        return '';
      }
      return write(child, removed, counts, false);
    })
    .join('');
  const open = `<${element.name}${attributes.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('')}`;
  return children ? `${open}>${children}</${element.name}>` : `${open}/>`;
}

/** The safe rewrite of `input`, or UnsafeSvg explaining why it cannot be made safe. */
export function sanitiseSvg(input: string): SanitisedSvg {
  const root = parse(input.replace(/^\uFEFF/, ''));
  if (root.name !== 'svg') throw new UnsafeSvg(`The root element must be <svg>, not <${root.name}>.`);
  const removed: string[] = [];
  const counts = { drawable: 0 };
  const svg = write(root, removed, counts, true);
  if (counts.drawable === 0) throw new UnsafeSvg('Nothing drawable is left once unsafe content is removed.');
  return { svg, removed };
}
