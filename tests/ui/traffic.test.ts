import { expect, test } from 'bun:test'
import { trafficFigures } from '../../src/ui/lib/traffic'

test('success rate is served over served + failed; RPM and TPM are the served requests of the last minute', () => {
  expect(trafficFigures({ count: 3, rpm: 2, tpm: 90 }, 1)).toEqual({ successRate: 0.75, failed: 1, rpm: 2, tpm: 90 })
})

test('no request in the range: no rate (not 0 % and not 100 %)', () => {
  expect(trafficFigures({ count: 0, rpm: 0, tpm: 0 }, 0).successRate).toBeUndefined()
})
