import { useState } from "react";

/** The user's avatar, or their initial when the image is missing or fails to load. */
export function Avatar({ url, name, className = "size-8" }: { url: string | null; name: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  if (url && !failed)
    return <img src={url} alt="" onError={() => setFailed(true)} className={`${className} shrink-0 rounded-full`} />;
  return (
    <span
      aria-hidden
      className={`${className} grid shrink-0 place-items-center rounded-full bg-violet-700 text-sm text-white`}
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
