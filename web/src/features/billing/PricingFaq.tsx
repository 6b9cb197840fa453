import { QUOTA_COUNTS } from "./billing.queries";

const FAQ: Array<{ q: string; a: string }> = [
  { q: "What counts as a solution?", a: QUOTA_COUNTS },
  {
    q: "Is there a money-back guarantee?",
    a: "Yes. Every paid plan comes with a 7-day money-back guarantee: contact support within 7 days of paying for a full refund.",
  },
  {
    q: "What happens when I get close to my limit?",
    a: "We send you an in-app notification when you reach 80% of your monthly limit, so you can upgrade before you run out.",
  },
  {
    q: "What happens when I reach my limit?",
    a: "New solutions are paused until your next billing period starts, or until you upgrade. Existing solutions and pull requests stay available.",
  },
  {
    q: "Which models can I use?",
    a: "Free uses Groq-hosted models. Pro and Enterprise add OpenAI and Anthropic models.",
  },
  {
    q: "How does billing work?",
    a: "Each payment covers 30 days. When the period ends without a new payment, your account returns to the Free plan; nothing is charged automatically.",
  },
];

export function PricingFaq() {
  return (
    <section aria-labelledby="faq-title" className="mx-auto mt-12 max-w-3xl">
      <h2 id="faq-title" className="mb-4 text-xl font-semibold">
        Frequently asked questions
      </h2>
      <div className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {FAQ.map((f) => (
          <details key={f.q} className="group p-4">
            <summary className="cursor-pointer font-medium">{f.q}</summary>
            <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{f.a}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
