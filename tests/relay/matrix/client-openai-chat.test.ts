import { defineMatrix } from './define'

defineMatrix('openai-chat')
