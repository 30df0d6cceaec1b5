"""Make the board's short sounds (static/games/sounds/*.wav): shaped sine tones, 16-bit mono.

Run once after changing a tone: `python scripts/make_sounds.py`. The files are committed, so the
site needs no audio tool; each is a few KB.
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parents[1] / "static" / "games" / "sounds"

# name -> notes (frequency Hz or 0 for a rest, milliseconds, volume 0..1)
SOUNDS: dict[str, list[tuple[float, int, float]]] = {
    "turn": [(880, 90, 0.35), (0, 30, 0), (1175, 120, 0.35)],  # your turn: two rising notes
    "discard": [(330, 45, 0.45)],  # a tile laid: a short low click
    "claim": [(660, 80, 0.4), (880, 80, 0.4)],  # a claim is offered to you
    "win": [(523, 110, 0.35), (659, 110, 0.35), (784, 110, 0.35), (1047, 220, 0.35)],
    "tick": [(1400, 60, 0.3)],  # each of the timer's last 3 seconds
}


def samples(notes: list[tuple[float, int, float]]) -> bytes:
    out = bytearray()
    for freq, ms, volume in notes:
        n = int(RATE * ms / 1000)
        for i in range(n):
            # 5 ms attack and 20 ms release: no clicks at the edges
            envelope = min(1.0, i / (RATE * 0.005)) * min(1.0, (n - i) / (RATE * 0.02))
            value = volume * envelope * math.sin(2 * math.pi * freq * i / RATE) if freq else 0.0
            out += struct.pack("<h", int(value * 32767))
    return bytes(out)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, notes in SOUNDS.items():
        with wave.open(str(OUT / f"{name}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(samples(notes))


if __name__ == "__main__":
    main()
