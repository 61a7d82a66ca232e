import { emptyRequest, type IrRequest } from '../../../src/ir/index.ts'
export { collect } from '../../../src/ir/index.ts'

export function emptyIrRequestForTest(over: Partial<IrRequest> = {}): IrRequest {
  return { ...emptyRequest('gpt-x'), ...over }
}
