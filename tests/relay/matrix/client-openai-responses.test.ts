import { defineMatrix } from './define'

defineMatrix('openai-responses')
