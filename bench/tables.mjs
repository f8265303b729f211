// The tables of the pipeline section of docs/benchmarks.md (and of bench/run.mjs's printout), from its measured results.

/**
 * The table builders over one run's results.
 *
 * @param {{ impls: Array<{ key: string, label: string }>, results: Record<string, Record<string, any>>, scenarioInfo: Record<string, any>, scenarioNames: string[], SCALING: Array<{ name: string, factor: number }>, MB: number }} run
 */
export function tables({ impls, results, scenarioInfo, scenarioNames, SCALING, MB }) {
  const fmt = (x, digits = 1) => (x >= 100 ? x.toFixed(0) : x.toFixed(digits));

  function scenarioTable(name) {
    const info = scenarioInfo[name];
    const floor = results[name].floor;
    const lines = [`| implementation | runs | median ms | min–max ms | MB/s | × floor | steady ms | steady × floor | peak heap Δ MB |`, `|---|---:|---:|---:|---:|---:|---:|---:|---:|`];
    for (const impl of impls) {
      const r = results[name][impl.key];
      if (r.status !== 'ok') {
        lines.push(`| ${impl.label} | – | ${r.reason} | | | | | | |`);
        continue;
      }
      const ratio = floor?.status === 'ok' ? r.median / floor.median : NaN;
      const steadyRatio = floor?.status === 'ok' ? r.steady / floor.steady : NaN;
      const heapCell = r.heap ? fmt(r.heap.delta / MB) : (r.heapNote ?? '–');
      const x = (v) => (Number.isFinite(v) ? v.toFixed(2) + '×' : '–');
      lines.push(
        `| ${impl.label} | ${r.times.length} | ${fmt(r.median)} | ${fmt(r.min)}–${fmt(r.max)} | ${fmt(info.bytes / MB / (r.median / 1000))} | ${x(ratio)} | ${fmt(r.steady)} | ${x(steadyRatio)} | ${heapCell} |`,
      );
    }
    return lines.join('\n');
  }

  function scalingTable() {
    const series = SCALING.filter((s) => scenarioNames.includes(s.name));
    if (series.length < 2) return null;
    const lines = [`| implementation | ${series.map((s) => `ms/MB @ ${s.factor}x`).join(' | ')} | last ÷ first |`, `|---|${series.map(() => '---:').join('|')}|---:|`];
    for (const impl of impls) {
      const perMb = series.map((s) => {
        const r = results[s.name][impl.key];
        return r.status === 'ok' ? r.median / (scenarioInfo[s.name].bytes / MB) : null;
      });
      if (perMb.every((v) => v === null)) {
        lines.push(`| ${impl.label} | ${series.map(() => '–').join(' | ')} | ${results[series[0].name][impl.key].reason ?? ''} |`);
        continue;
      }
      const growth = perMb[0] && perMb.at(-1) ? (perMb.at(-1) / perMb[0]).toFixed(2) + '×' : '–';
      lines.push(`| ${impl.label} | ${perMb.map((v) => (v === null ? '–' : v.toFixed(2))).join(' | ')} | ${growth} |`);
    }
    return lines.join('\n');
  }

  return { scenarioTable, scalingTable };
}
