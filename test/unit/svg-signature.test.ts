import { describe, expect, it } from 'vitest';
import { sanitiseSvg, UnsafeSvg } from '#shared/events/domain/svg-signature';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const wrap = (inner: string, rootAttributes = '') => `<svg ${NS} viewBox="0 0 100 40"${rootAttributes}>${inner}</svg>`;
const STROKE = '<path d="M10 30 C 20 0, 40 0, 50 30" stroke="#000" fill="none"/>';

describe('sanitiseSvg', () => {
  it('keeps a plain signature drawing as it is', () => {
    const { svg, removed } = sanitiseSvg(`<?xml version="1.0"?>\n${wrap(`\n  ${STROKE}\n`)}`);
    expect(svg).toBe(
      `<svg ${NS} viewBox="0 0 100 40"><path d="M10 30 C 20 0, 40 0, 50 30" stroke="#000" fill="none"/></svg>`,
    );
    expect(removed).toEqual([]);
  });

  it('removes a <script> element with its content', () => {
    const { svg, removed } = sanitiseSvg(wrap(`${STROKE}<script>alert(document.cookie)</script>`));
    expect(svg).not.toMatch(/script|alert/);
    expect(removed).toContain('<script>');
  });

  it('removes a script hidden in CDATA inside <script>', () => {
    const { svg } = sanitiseSvg(wrap(`${STROKE}<script><![CDATA[ fetch("//evil.example") ]]></script>`));
    expect(svg).not.toMatch(/fetch|evil/);
  });

  it('removes onload and every other event handler attribute', () => {
    const { svg, removed } = sanitiseSvg(
      wrap('<path d="M0 0L9 9" onclick="steal()" ONMOUSEOVER="x()"/>', ' onload="alert(1)"'),
    );
    expect(svg).not.toMatch(/on\w+=|alert|steal/i);
    expect(removed).toEqual(expect.arrayContaining(['onload', 'onclick', 'ONMOUSEOVER']));
  });

  it('removes links with javascript: hrefs', () => {
    const { svg } = sanitiseSvg(wrap(`<a href="javascript:alert(1)">${STROKE}</a><path d="M1 1L2 2"/>`));
    expect(svg).not.toMatch(/javascript|<a/);
  });

  it('removes foreignObject and the HTML inside it', () => {
    const { svg, removed } = sanitiseSvg(
      wrap(
        `${STROKE}<foreignObject width="100" height="40"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example"/></body></foreignObject>`,
      ),
    );
    expect(svg).not.toMatch(/foreignObject|iframe|evil/);
    expect(removed).toContain('<foreignObject>');
  });

  it('removes external references: <use>, <image>, xlink:href and url() paint', () => {
    const { svg } = sanitiseSvg(
      wrap(
        `<use href="https://evil.example/sprite.svg#x"/><image xlink:href="https://evil.example/track.png"/>` +
          `<path d="M0 0L5 5" fill="url(https://evil.example/p.svg#g)" stroke="red"/>`,
        ' xmlns:xlink="http://www.w3.org/1999/xlink"',
      ),
    );
    expect(svg).not.toMatch(/evil|href|url\(/);
    expect(svg).toContain('stroke="red"');
  });

  it('removes style elements and attributes (CSS can fetch and run)', () => {
    const { svg } = sanitiseSvg(
      wrap(`<style>@import url(https://evil.example/x.css);</style><path d="M0 0L1 1" style="fill:url(#x)"/>`),
    );
    expect(svg).not.toMatch(/style|import|evil/);
  });

  it('drops an xml-stylesheet processing instruction', () => {
    const { svg } = sanitiseSvg(`<?xml-stylesheet href="https://evil.example/x.css"?>${wrap(STROKE)}`);
    expect(svg).not.toMatch(/evil|stylesheet/);
  });

  it('escapes text so it cannot become markup', () => {
    const { svg } = sanitiseSvg(wrap('<text x="1" y="20">Jane &lt;script&gt; Doe &amp; co</text>'));
    expect(svg).toContain('<text x="1" y="20">Jane &lt;script&gt; Doe &amp; co</text>');
  });

  it.each([
    [
      'a DOCTYPE with entities (XXE)',
      `<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${wrap('<text>&x;</text>')}`,
    ],
    ['a root that is not <svg>', `<html><body>${STROKE}</body></html>`],
    ['unclosed elements', `<svg ${NS}><path d="M0 0L1 1">`],
    ['mismatched end tags', `<svg ${NS}><g>${STROKE}</svg></g>`],
    ['unquoted attribute values', `<svg ${NS}><path d=M0/></svg>`],
    ['a duplicated attribute', `<svg ${NS}><path d="M0 0" d="M1 1"/></svg>`],
    ['an unknown entity', wrap('<text>&nbsp;</text>')],
    ['two root elements', `${wrap(STROKE)}${wrap(STROKE)}`],
    ['text that is not SVG at all', 'just a name'],
    [
      'nothing drawable once scripts are removed',
      wrap('<script>alert(1)</script><foreignObject><div/></foreignObject>'),
    ],
    ['nesting deeper than 32 levels', `<svg ${NS}>${'<g>'.repeat(40)}${STROKE}${'</g>'.repeat(40)}</svg>`],
  ])('refuses %s', (_name, input) => {
    expect(() => sanitiseSvg(input)).toThrow(UnsafeSvg);
  });
});
