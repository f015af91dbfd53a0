import asc from 'assemblyscript/asc';
const [src, out] = process.argv.slice(2);
const { error, stderr } = await asc.main([src, '--enable', 'simd', '-O3', '--runtime', 'stub', '--noAssert', '--outFile', out], {});
if (error) { console.error(stderr.toString()); process.exit(1); }
