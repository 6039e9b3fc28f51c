// Sounds made with the Web Audio API: no sound files to ship. The setting (kept in this
// browser) is one of SOUND_MODES: every sound ("on"), only the last seconds of your own turn
// ("clock": their ticks and the warning, the default, so that a player hears their time
// running out), or none ("off"). A browser that kept the earlier on/off switch keeps its
// choice (true is "on", false "off").
let context = null;

export const SOUND_MODES = ["on", "clock", "off"];
const CLOCK_SOUNDS = new Set(["tick", "warn"]);

export function soundMode(setting) {
  if (setting === true) return "on";
  if (setting === false) return "off";
  return SOUND_MODES.includes(setting) ? setting : "clock";
}

const TONES = {
  play: [[520, 0.06]],
  turn: [[660, 0.08], [880, 0.1]],
  bomb: [[180, 0.12], [120, 0.18]],
  error: [[220, 0.12]],
  deal: [[440, 0.05], [550, 0.05], [660, 0.07]],
  alert: [[988, 0.07], [784, 0.09]],
  tick: [[1320, 0.03]],
  warn: [[1175, 0.09], [1568, 0.12]],
};

// Plays `kind` if the sound setting `setting` lets it.
export function beep(kind, setting) {
  const mode = soundMode(setting);
  if (mode === "off" || (mode === "clock" && !CLOCK_SOUNDS.has(kind)) || !TONES[kind]) return;
  try {
    context = context || new AudioContext();
    if (context.state === "suspended" && context.resume) context.resume();
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
