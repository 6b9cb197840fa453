export function Logo({ withText = true }: { withText?: boolean }) {
  return (
    <span className="flex items-center gap-2 font-semibold">
      <svg viewBox="0 0 24 24" className="size-7" aria-hidden>
        <circle cx="12" cy="12" r="11" className="fill-violet-700" />
        <path
          d="M7 12a5 5 0 0 1 9-3m1 3a5 5 0 0 1-9 3"
          stroke="white"
          strokeWidth="2"
          fill="none"
          strokeLinecap="round"
        />
      </svg>
      {withText && <span className="hidden sm:inline">Fixloop</span>}
    </span>
  );
}
