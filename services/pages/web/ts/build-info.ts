/** Replaced at build time with the moment of the build. */
export const builtAt: string = 'not stamped (run npm run build)';
