import type { ReactNode } from "react";
import { buttonClass } from "~/components/ui/button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";

// The frame of a document page meant to be printed as it is (a receipt, an invoice): no account
// chrome inside the card, the way back and the PDF download outside it, hidden in print.

export function PrintedDocument({ back, pdfHref, children }: { back: string; pdfHref: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-2xl px-4 py-10 print:max-w-none print:p-0">
      <p className="text-sm print:hidden">
        <TextLink to={back}>← Back to Billing</TextLink>
      </p>
      <article className="mt-4 rounded-2xl border border-slate-200 bg-white p-8 shadow-sm print:border-0 print:shadow-none">{children}</article>
      <p className="mt-6 flex flex-wrap gap-3 print:hidden">
        {/* A plain link: the PDF is a file from the server, not a page of the app. */}
        <a href={pdfHref} download className={buttonClass()}>
          Download PDF
        </a>
      </p>
    </main>
  );
}

/** The line item with its amount, then the summing rows (the last one, the total, in bold). */
export function ItemTable({ amountLabel, item, amount, rows }: { amountLabel: string; item: string; amount: string; rows: [string, string][] }) {
  return (
    <table className="mt-8 w-full text-left text-sm">
      <thead className="border-b border-slate-200 text-slate-600">
        <tr>
          <th scope="col" className="py-2 font-medium">
            Item
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            {amountLabel}
          </th>
        </tr>
      </thead>
      <tbody>
        <tr className="border-b border-slate-200">
          <td className="py-3">{item}</td>
          <td className="py-3 text-right whitespace-nowrap">{amount}</td>
        </tr>
      </tbody>
      <tfoot>
        {rows.map(([label, value], index) => {
          const total = index === rows.length - 1;
          return (
            <tr key={label} className={total ? "text-base font-bold" : undefined}>
              <th scope="row" className={`pt-3 ${total ? "font-bold" : "font-medium"}`}>
                {label}
              </th>
              <td className="pt-3 text-right whitespace-nowrap">{value}</td>
            </tr>
          );
        })}
      </tfoot>
    </table>
  );
}
