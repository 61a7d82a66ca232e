import { defineMatrix } from './define'

defineMatrix('gemini')
