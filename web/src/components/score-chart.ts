/**
 * The score curve (f with Φstruct, Φcov, Φcoh, Φtemp on the same 0-100 scale)
 * over steps, with the stage band under it, waste spans behind it and signal
 * markers on it; and the per-step reward as bars below, cursor-synced.
 * uPlot draws on canvas; the step table is the accessible twin of the picture.
 */
import uPlot from 'uplot';
import { OKABE_ITO, PALETTE, SERIES, stageColor } from '../colors.js';
import type { Signal, ViewStep } from '../types.js';

export interface ChartData {
  steps: readonly ViewStep[];
  signals: readonly Signal[];
  /** Step-index runs to shade (waste). */
  waste: ReadonlyArray<[number, number]>;
  /** False when scored against the prior: Φstruct and Φcov do not exist. */
  hasReference: boolean;
}

export interface ScoreCharts {
  update(data: ChartData): void;
  /** Moves the cursor to a step (keyboard, table clicks). */
  focus(t: number): void;
  resize(width: number): void;
  destroy(): void;
}

const BAND_TOP = -3;
const BAND_BOTTOM = -13;

/** Contiguous runs of step indices, for shading. */
export function spans(steps: readonly number[]): Array<[number, number]> {
  const sorted = [...new Set(steps)].sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (const t of sorted) {
    const last = out[out.length - 1];
    if (last && t === last[1] + 1) last[1] = t;
    else out.push([t, t]);
  }
  return out;
}

function columns(steps: readonly ViewStep[]): uPlot.AlignedData {
  const x = steps.map((s) => s.t);
  const v = (f: (s: ViewStep) => number | null) => steps.map(f);
  return [x, v((s) => s.score.total), v((s) => s.score.struct), v((s) => s.score.cov), v((s) => 100 * s.score.coh), v((s) => 100 * s.score.temp)];
}

export function scoreCharts(host: HTMLElement, width: number, onCursor: (t: number | null) => void): ScoreCharts {
  let data: ChartData = { steps: [], signals: [], waste: [], hasReference: true };
  const xRange = (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [-0.5, Math.max(1, data.steps.length - 1, max) + 0.5];
  const cellX = (u: uPlot, t: number): [number, number] => {
    const a = u.valToPos(t - 0.5, 'x', true);
    const b = u.valToPos(t + 0.5, 'x', true);
    return [a, Math.max(b - a, 1)];
  };

  const drawWaste = (u: uPlot): void => {
    const { ctx, bbox } = u;
    ctx.save();
    ctx.fillStyle = 'rgba(0, 0, 0, 0.07)';
    for (const [a, b] of data.waste) {
      const x0 = u.valToPos(a - 0.5, 'x', true);
      const x1 = u.valToPos(b + 0.5, 'x', true);
      ctx.fillRect(x0, bbox.top, x1 - x0, bbox.height);
    }
    ctx.restore();
  };

  const drawStages = (u: uPlot): void => {
    const { ctx } = u;
    const y0 = u.valToPos(BAND_TOP, 'y', true);
    const y1 = u.valToPos(BAND_BOTTOM, 'y', true);
    ctx.save();
    for (const s of data.steps) {
      const [x, w] = cellX(u, s.t);
      ctx.fillStyle = stageColor(s.stage);
      ctx.fillRect(x, y0, w, y1 - y0);
    }
    ctx.restore();
  };

  const drawSignals = (u: uPlot): void => {
    const { ctx, bbox } = u;
    const dpr = uPlot.pxRatio;
    ctx.save();
    for (const s of data.signals) {
      const x = Math.round(u.valToPos(s.t, 'x', true)) + 0.5;
      const stop = s.severity === 'stop';
      ctx.strokeStyle = stop ? PALETTE.stop : PALETTE.warn;
      ctx.fillStyle = ctx.strokeStyle;
      ctx.lineWidth = (stop ? 2 : 1.5) * dpr;
      ctx.setLineDash(stop ? [] : [5 * dpr, 3 * dpr]);
      ctx.beginPath();
      ctx.moveTo(x, bbox.top);
      ctx.lineTo(x, u.valToPos(0, 'y', true));
      ctx.stroke();
      ctx.setLineDash([]);
      const m = 6 * dpr;
      ctx.beginPath();
      if (stop) ctx.rect(x - m, bbox.top, 2 * m, 2 * m);
      else {
        ctx.moveTo(x - m, bbox.top);
        ctx.lineTo(x + m, bbox.top);
        ctx.lineTo(x, bbox.top + 1.7 * m);
        ctx.closePath();
      }
      ctx.fill();
    }
    ctx.restore();
  };

  const sync = uPlot.sync(`steplens-${Math.random().toString(36).slice(2)}`);
  const cursor: uPlot.Cursor = { sync: { key: sync.key }, drag: { x: false, y: false, setScale: false }, points: { size: 7 } };
  // Steps are whole numbers: only whole-number ticks.
  const xAxis: uPlot.Axis = {
    stroke: PALETTE.axis,
    grid: { stroke: PALETTE.grid },
    ticks: { stroke: PALETTE.grid },
    label: 'step',
    labelSize: 20,
    incrs: [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000],
  };
  const cursorHook = (u: uPlot): void => {
    const i = u.cursor.idx;
    onCursor(i === null || i === undefined ? null : (data.steps[i]?.t ?? null));
  };

  const score = new uPlot(
    {
      width,
      height: 300,
      legend: { live: true },
      cursor,
      scales: { x: { time: false, range: xRange }, y: { range: [BAND_BOTTOM - 1, 101] } },
      axes: [xAxis, { stroke: PALETTE.axis, grid: { stroke: PALETTE.grid }, ticks: { stroke: PALETTE.grid }, splits: () => [0, 20, 40, 60, 80, 100], label: 'score (0-100)', labelSize: 20 }],
      series: [
        { label: 'step' },
        { label: 'score f', stroke: OKABE_ITO.black, width: 2.5 },
        { label: 'Φstruct', stroke: SERIES[0], width: 1.5 },
        { label: 'Φcov', stroke: SERIES[2], width: 1.5, dash: [6, 3] },
        { label: 'Φcoh ×100', stroke: SERIES[3], width: 1.5, dash: [2, 2] },
        { label: 'Φtemp ×100', stroke: SERIES[1], width: 1.5, dash: [8, 3, 2, 3] },
      ],
      hooks: { drawClear: [drawWaste], draw: [drawStages, drawSignals], setCursor: [cursorHook] },
    },
    columns([]),
    host,
  );

  const reward = new uPlot(
    {
      width,
      height: 150,
      legend: { live: true },
      cursor,
      scales: { x: { time: false, range: xRange } },
      axes: [xAxis, { stroke: PALETTE.axis, grid: { stroke: PALETTE.grid }, ticks: { stroke: PALETTE.grid }, label: 'reward', labelSize: 20 }],
      series: [
        { label: 'step' },
        { label: 'reward ≥ 0', fill: PALETTE.referenceFree, stroke: PALETTE.referenceFree, paths: uPlot.paths.bars!({ size: [0.8, 40] }), points: { show: false } },
        { label: 'reward < 0', fill: PALETTE.fail, stroke: PALETTE.fail, paths: uPlot.paths.bars!({ size: [0.8, 40] }), points: { show: false } },
      ],
    },
    [[], [], []],
    host,
  );

  const apply = (): void => {
    score.setSeries(2, { show: data.hasReference });
    score.setSeries(3, { show: data.hasReference });
    score.setData(columns(data.steps));
    const x = data.steps.map((s) => s.t);
    reward.setData([x, data.steps.map((s) => (s.reward >= 0 ? s.reward : null)), data.steps.map((s) => (s.reward < 0 ? s.reward : null))]);
  };

  return {
    update(next) {
      data = next;
      apply();
    },
    focus(t) {
      const i = data.steps.findIndex((s) => s.t === t);
      if (i < 0) return;
      const left = score.valToPos(t, 'x');
      const top = score.valToPos(data.steps[i]?.score.total ?? 0, 'y');
      score.setCursor({ left, top });
    },
    resize(w) {
      score.setSize({ width: w, height: 300 });
      reward.setSize({ width: w, height: 150 });
    },
    destroy() {
      score.destroy();
      reward.destroy();
    },
  };
}
