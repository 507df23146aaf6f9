#!/usr/bin/env python3
"""Summarizes `benches/rounds.sh` output (JSON lines on stdin or in the files named) as one
Markdown table per configuration (backend, draws, passes), one row per scenario and mode:

- the fastest run's encode median (µs) and its ratio to raw's fastest;
- the median run;
- the paired ratio: the median over the rounds of the mode's time divided by raw's in the same
  round (rounds where either run failed are left out), and the same against `raw-bundle` when
  the rounds have it;
- the counters of the mode's first run (bind groups, writes, bytes and allocations per frame).

Needs a `raw` run in each round to pair with. Python 3 standard library only.

  benches/rounds.sh --backend vulkan --rounds 20 > runs.jsonl
  benches/rounds-summary.py runs.jsonl
"""
import fileinput, json, statistics, sys
from collections import defaultdict

MODES = ["raw", "raw-bundle", "struct", "typed", "buffer"]


def main():
    runs = defaultdict(lambda: defaultdict(dict))  # config -> (scenario, mode) -> round -> run
    errors = 0
    for line in fileinput.input():
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if "error" in r:
            errors += 1
            continue
        config = (r["backend"], r["draws"], r["passes"])
        runs[config][(r["scenario"], r["mode"])][r["round"]] = r
    for (backend, draws, passes), table in runs.items():
        print(f"\n{backend}, {draws} draws × {passes} passes\n")
        print("| scenario | mode | runs | encode µs, fastest | ÷ raw | median µs | paired ÷ raw "
              "| paired ÷ raw-bundle | bind groups/frame | writes/frame | bytes/frame "
              "| allocs/frame |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        scenarios = list(dict.fromkeys(s for s, _ in table))
        for scenario in scenarios:
            raw = table.get((scenario, "raw"), {})
            raw_bundle = table.get((scenario, "raw-bundle"), {})
            raw_fastest = min((r["encode_us_median"] for r in raw.values()), default=None)
            modes = [m for m in MODES if (scenario, m) in table]
            modes += sorted({m for s, m in table if s == scenario} - set(modes))
            for mode in modes:
                rounds = table[(scenario, mode)]
                times = [r["encode_us_median"] for r in rounds.values()]
                paired = [r["encode_us_median"] / raw[k]["encode_us_median"]
                          for k, r in rounds.items() if k in raw]
                paired_bundle = [r["encode_us_median"] / raw_bundle[k]["encode_us_median"]
                                 for k, r in rounds.items() if k in raw_bundle]
                first = rounds[min(rounds)]
                cells = [
                    scenario, mode, str(len(times)), f"{min(times):.0f}",
                    f"{min(times) / raw_fastest:.2f}" if raw_fastest else "—",
                    f"{statistics.median(times):.0f}",
                    f"{statistics.median(paired):.2f}" if paired else "—",
                    f"{statistics.median(paired_bundle):.2f}" if paired_bundle else "—",
                    str(first["bind_groups_created_per_frame"]),
                    str(first["write_calls_per_frame"]),
                    str(first["bytes_uploaded_per_frame"]),
                    str(first["allocations_per_frame"]),
                ]
                print("| " + " | ".join(cells) + " |")
    if errors:
        print(f"\n{errors} failed runs left out", file=sys.stderr)


if __name__ == "__main__":
    main()
