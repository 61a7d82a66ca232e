import { defineMatrix } from './define'

defineMatrix('anthropic')
