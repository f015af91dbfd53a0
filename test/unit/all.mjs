// The unit loop's one test process (scripts/run-tests.mjs --unit): every unit test file named in
// MURMUR_UNIT_FILES as a suite of its own, so tsx and the library load once rather than per file.
// (Each file is imported inside its suite: tests registered while another file's run, as a
// plain import loop does, can find their parent finished.)
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';

for (const file of JSON.parse(process.env.MURMUR_UNIT_FILES ?? '[]'))
  describe(file, async () => {
    await import(pathToFileURL(file).href);
  });
