/** The essence of a Content-Type: the type/subtype in lower case, parameters dropped. */
export function mimeEssence(contentType: string | undefined): string {
  if (!contentType) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}
