// The browser soak (issue 8): filled in by the next commit.
export const tests = {};
export const longTests = {};
