/**
 * Preloaded by bunfig.toml for every test file: argon2id at a test's cost. The gateway hashes with Bun's
 * defaults (64 MiB, 2 passes: ~0.25 s of one core per hash or check), and the suite creates a root user and logs
 * in thousands of times; at that cost password hashing alone was minutes of the suite's CPU. Hashes stay
 * `$argon2id$` (what the code checks and rehashes by), Bun.password.verify reads the cost from the hash, and a
 * test that gives its own options (an object) gets them unchanged. Processes the tests start (the compiled
 * binary, `bun src/index.ts`) keep the production cost.
 */
const TEST_COST = { algorithm: 'argon2id', memoryCost: 4096, timeCost: 1 } as const

type HashAlgorithm = Parameters<typeof Bun.password.hash>[1]
const cheap = (algorithm: HashAlgorithm): HashAlgorithm => (algorithm === undefined || algorithm === 'argon2id' ? TEST_COST : algorithm)

const { hash, hashSync } = Bun.password
Bun.password.hash = (password, algorithm) => hash(password, cheap(algorithm))
Bun.password.hashSync = (password, algorithm) => hashSync(password, cheap(algorithm))

export {} // a module, not a script: its names stay its own
