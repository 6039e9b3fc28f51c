// Optional sounds (off by default), made with the Web Audio API: no sound files to ship.
let context = null;

const TONES = {
  play: [[520, 0.06]],
  turn: [[660, 0.08], [880, 0.1]],
  bomb: [[180, 0.12], [120, 0.18]],
  error: [[220, 0.12]],
  deal: [[440, 0.05], [550, 0.05], [660, 0.07]],
  alert: [[988, 0.07], [784, 0.09]],
  tick: [[1320, 0.03]],
};

export function beep(kind, enabled) {
  if (!enabled || !TONES[kind]) return;
  try {
    context = context || new AudioContext();
    let at = context.currentTime;
    for (const [hz, seconds] of TONES[kind]) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
      osc.connect(gain).connect(context.destination);
      osc.start(at);
      osc.stop(at + seconds);
      at += seconds;
    }
  } catch (e) {
    // No audio device: sounds are a nicety, never an error.
  }
}
