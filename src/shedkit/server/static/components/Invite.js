// The invite box of a table: its link to copy and a QR code a friend's phone can scan.
import { html, useEffect, useMemo, useRef, useState } from "../lib/html.js";
import { t } from "../lib/i18n.js";
import { renderSVG } from "uqr";

// An older browser, or a page not served over HTTPS, has no clipboard API: select the
// text and let the browser copy it the old way.
async function copyText(text, input) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  input.select();
  if (!document.execCommand("copy")) throw new Error("copy refused");
}

// props: url (the table's invite link, absolute or relative to this page).
export function Invite({ url }) {
  const link = useMemo(() => new URL(url, location.href).href, [url]);
  // The QR code is SVG text made here from the link alone: nothing from outside goes in.
  const svg = useMemo(() => renderSVG(link, { border: 2 }), [link]);
  const [copied, setCopied] = useState(null);
  const input = useRef(null);
  const timer = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await copyText(link, input.current);
      setCopied("ok");
    } catch (e) {
      input.current.select();
      setCopied("failed");
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(null), 2500);
  }

  return html`<section class="invite" aria-labelledby="invite-heading">
    <h2 id="invite-heading">${t("lobby.invite.heading")}</h2>
    <p class="help">${t("lobby.invite.help")}</p>
    <div class="invite-row">
      <label class="visually-hidden" for="invite-url">${t("lobby.invite.link")}</label>
      <input id="invite-url" ref=${input} readonly value=${link} onFocus=${(e) => e.target.select()} />
      <button type="button" class="button primary" id="invite-copy" onClick=${copy}>
        ${copied === "ok" ? t("lobby.invite.copied") : t("lobby.invite.copy")}</button>
    </div>
    <p class="help invite-status" role="status">${copied === "failed" ? t("lobby.invite.copy_failed") : ""}</p>
    <div class="invite-qr" role="img" aria-label=${t("lobby.invite.qr")} dangerouslySetInnerHTML=${{ __html: svg }}></div>
  </section>`;
}
