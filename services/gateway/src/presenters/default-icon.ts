/** Shown for releases whose package carries no icon (a plain rounded tile). */
export const DEFAULT_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128" role="img" aria-label="App">
<rect width="128" height="128" rx="28" fill="#5b6b7f"/>
<path d="M40 84h48M44 44h40v32H44z" stroke="#fff" stroke-width="8" fill="none" stroke-linejoin="round" stroke-linecap="round"/>
</svg>`;
