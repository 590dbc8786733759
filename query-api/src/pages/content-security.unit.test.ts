import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { styleAttributeHashes } from './content-security';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

it('hashes each distinct style attribute of the page, as the browser reads it (entities decoded)', () => {
  const html = `<div style="--Paper-shadow: none;"><span style="width: 70%;"></span><p style="--Paper-shadow: none;">
    <i style="font-family: &quot;Nunito&quot;"></i><b data-style="x: y"></b></p></div><style>a[style="q"]{}</style>`;
  expect(styleAttributeHashes(html)).toEqual(
    [sha('--Paper-shadow: none;'), sha('width: 70%;'), sha('font-family: "Nunito"')].sort(),
  );
  expect(styleAttributeHashes('')).toEqual([]);
});
