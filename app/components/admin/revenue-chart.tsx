import { formatCompact, formatMoney } from "~/lib/format.ts";

// Revenue of the last twelve months as bars drawn on the server (plain SVG, no script), with
// the same figures as a table for screen readers and anyone who wants the numbers.

type Month = { month: string; amount: number; payments: number };

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const label = (month: string) => `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(2, 4)}`;

export function RevenueChart({ months }: { months: Month[] }) {
  const width = 720;
  const height = 240;
  const left = 48;
  const bottom = 28;
  const top = 12;
  const max = Math.max(1, ...months.map((m) => m.amount));
  const step = (width - left) / months.length;
  const barWidth = Math.max(4, step * 0.6);
  const scale = (value: number) => ((height - bottom - top) * value) / max;
  const ticks = [0, max / 2, max];
  return (
    <figure>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="revenue-chart-title" className="h-auto w-full">
        <title id="revenue-chart-title">Revenue per month, last 12 months (figures in the table below)</title>
        {ticks.map((tick) => {
          const y = height - bottom - scale(tick);
          return (
            <g key={tick}>
              <line x1={left} x2={width} y1={y} y2={y} stroke="#e2e8f0" />
              <text x={left - 6} y={y + 4} textAnchor="end" fontSize="11" fill="#64748b">
                ${formatCompact(Math.round(tick))}
              </text>
            </g>
          );
        })}
        {months.map((m, i) => {
          const x = left + i * step + (step - barWidth) / 2;
          const h = scale(m.amount);
          return (
            <g key={m.month}>
              <rect x={x} y={height - bottom - h} width={barWidth} height={h} rx="3" fill="#0e7490" />
              <text x={x + barWidth / 2} y={height - 8} textAnchor="middle" fontSize="11" fill="#475569">
                {label(m.month)}
              </text>
            </g>
          );
        })}
      </svg>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-slate-600">Show the figures</summary>
        <table className="mt-2 w-full text-left">
          <caption className="sr-only">Revenue per month, last 12 months</caption>
          <thead>
            <tr className="text-xs text-slate-500 uppercase">
              <th scope="col" className="py-1">
                Month
              </th>
              <th scope="col" className="py-1 text-right">
                Revenue
              </th>
              <th scope="col" className="py-1 text-right">
                Payments
              </th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month} className="border-t border-slate-100">
                <th scope="row" className="py-1 font-normal">
                  {label(m.month)}
                </th>
                <td className="py-1 text-right">{formatMoney(m.amount)}</td>
                <td className="py-1 text-right">{m.payments}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
