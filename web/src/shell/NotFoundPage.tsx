import { Link } from "@tanstack/react-router";
import { PublicHeader } from "./PublicHeader";

/** The app's "Page not found", under the public header (the server answers such paths with 404). */
export default function NotFoundPage() {
  return (
    <>
      <PublicHeader />
      <main className="mx-auto max-w-lg p-10 text-center">
        <h1 className="text-2xl font-semibold">Page not found</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">There is no page at this address.</p>
        <div className="mt-4 flex justify-center gap-4">
          <Link to="/dashboard" className="text-violet-700 underline dark:text-violet-300">
            Dashboard
          </Link>
          <Link to="/" className="text-violet-700 underline dark:text-violet-300">
            Home
          </Link>
        </div>
      </main>
    </>
  );
}
