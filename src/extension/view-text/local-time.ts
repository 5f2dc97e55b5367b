/**
 * Times as a person reads them in a tab title: local, in their locale's format (VS Code's display
 * language), the time of day for today and the date as well before. Pure: no `vscode` import.
 */

/** A title time: "11:10:47 PM" today, "11∕24∕26, 11:10:47 PM" another day (a "/" would be read as a folder). */
export function titleTime(date: Date, locale: string | undefined, now: Date = new Date()): string {
  const text = date.toDateString() === now.toDateString() ? date.toLocaleTimeString(locale) : date.toLocaleString(locale, { dateStyle: 'short', timeStyle: 'medium' });
  // Newer ICU data separates "PM" by a narrow no-break space; a plain one reads the same everywhere.
  return text.replace(/\//g, '\u2215').replace(/\u202f/g, ' ');
}
