// Injected by test_card_faces.py: measures each card the page draws face up and returns
// {checked: {place: n}, cut: [what]}.
(() => {
  const place = (card) => card.closest('.hand') ? 'hand' : card.closest('.seat-play') ? 'seat'
    : card.closest('#log') ? 'log' : card.closest('.revealed, .replay-hands') ? 'revealed'
    : card.closest('.centre') ? 'centre' : 'other';
  const checked = {}; const cut = [];
  for (const card of document.querySelectorAll('.card:not(.back)')) {
    const r = card.getBoundingClientRect();
    if (r.width < 4) continue;
    const top = document.elementFromPoint(r.left + 3, r.top + 3);
    if (!top || top.closest('.card') !== card) continue;
    let right = r.right; let bottom = r.bottom;
    const next = card.nextElementSibling;
    if (next && next.classList.contains('card')) right = Math.min(right, next.getBoundingClientRect().left);
    const slot = card.closest('.hand-slot');
    if (slot) {
      const after = slot.nextElementSibling;
      if (after) right = Math.min(right, after.getBoundingClientRect().left);
      const row = slot.parentElement.nextElementSibling;
      if (row && row.querySelector('.card')) bottom = Math.min(bottom, row.getBoundingClientRect().top);
    }
    const joker = card.querySelector('.joker-letters');
    const glyphs = joker ? [joker] : [...card.querySelectorAll('text.rank, text.pip')];
    for (const g of glyphs) {
      const b = g.getBoundingClientRect();
      // A joker's letters run down the whole edge in the hand: their first one must show.
      const low = joker ? Math.min(b.bottom, b.top + b.width * 1.3) : b.bottom;
      if (b.left < r.left - 0.5 || b.top < r.top - 0.5 || b.right > right + 0.5 || low > bottom + 0.5) {
        cut.push(`${place(card)} ${card.getAttribute('aria-label') || card.dataset.card}: ${g.getAttribute('class')}`
          + ` [${[b.left, b.top, b.right, b.bottom].map(Math.round)}] in [${[r.left, r.top, right, bottom].map(Math.round)}]`);
      }
    }
    checked[place(card)] = (checked[place(card)] || 0) + 1;
  }
  return { checked, cut };
})
