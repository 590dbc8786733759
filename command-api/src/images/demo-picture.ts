import sharp from 'sharp';

/** A friendly placeholder picture (a paw and a name) for demo content, so a first start does not look empty. */
export const demoPicture = (name: string, [a, b]: [string, string]) =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
<rect width="800" height="600" fill="url(#g)"/>
<g fill="#ffffff" fill-opacity="0.9" transform="translate(400 250) scale(0.85)"><ellipse cx="0" cy="40" rx="95" ry="80"/>
<ellipse cx="-110" cy="-50" rx="38" ry="50"/><ellipse cx="-40" cy="-115" rx="38" ry="52"/>
<ellipse cx="40" cy="-115" rx="38" ry="52"/><ellipse cx="110" cy="-50" rx="38" ry="50"/></g>
<text x="400" y="470" font-family="DejaVu Sans, sans-serif" font-size="64" font-weight="bold" fill="#ffffff" text-anchor="middle">${name}</text></svg>`),
  )
    .png()
    .toBuffer();
