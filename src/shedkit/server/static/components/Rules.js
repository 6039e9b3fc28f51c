// The rules of a game as the server writes them (markdown), turned into the page's HTML.
import { html, useMemo } from "../lib/html.js";
import { marked } from "marked";

// props: markdown (the rules text from /api/howto/<game>, shipped with the package).
export function Rules({ markdown }) {
  // The text is the package's own rules files, not anything a player typed.
  // A wide table scrolls sideways on a phone: a keyboard must reach it too.
  const body = useMemo(() => marked.parse(markdown, { gfm: true }).replaceAll("<table>", '<table tabindex="0">'), [markdown]);
  return html`<article class="rules" dangerouslySetInnerHTML=${{ __html: body }}></article>`;
}
