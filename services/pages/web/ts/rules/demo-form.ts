/**
 * The spec's table "What new FormData(form) collects", applied to the demonstration form of the
 * forms page (web/bodies/forms.html): what the page predicts for that markup. The page judges
 * its experiments against these; change them together with the form.
 */

/** [name, description] in document order, for the form reset to its starting values and given a.txt (5 B) and b.txt (7 B). */
export const DEMO_FORM_ENTRIES: readonly (readonly [string, string])[] = [
  ['title', 'Hello'],
  ['colour', 'green'],
  ['note', 'Some text'],
  ['agree', 'on'],
  ['size', 'l'],
  ['langs', 'en'],
  ['langs', 'de'],
  ['phone', '111'],
  ['phone', '222'],
  ['emptyFile', 'File(name="", size=0, type="application/octet-stream")'],
  ['photos', 'File(name="a.txt", size=5, type="text/plain")'],
  ['photos', 'File(name="b.txt", size=7, type="text/plain")'],
];

/** What the submit button adds when passed as the submitter: its own name and value. */
export const SUBMIT_BUTTON_ADDS: readonly (readonly [string, string])[] = [['action', 'publish']];

/** What the image input (name "pos") adds as the submitter, outside a real click. */
export const IMAGE_INPUT_ADDS: readonly (readonly [string, string])[] = [
  ['pos.x', '0'],
  ['pos.y', '0'],
];

/** The entry of a file input with nothing chosen. */
export const EMPTY_FILE = { name: '', size: 0, type: 'application/octet-stream' } as const;
