/**
 * The vendors' marks from lobehub's icon set (@lobehub/icons-static-svg, MIT), monochrome so they follow the
 * theme: only these files are bundled, into a chunk of their own (components/vendor-icon.tsx loads it).
 */
import anthropic from '@lobehub/icons-static-svg/icons/anthropic.svg' with { type: 'text' }
import baichuan from '@lobehub/icons-static-svg/icons/baichuan.svg' with { type: 'text' }
import cohere from '@lobehub/icons-static-svg/icons/cohere.svg' with { type: 'text' }
import deepseek from '@lobehub/icons-static-svg/icons/deepseek.svg' with { type: 'text' }
import doubao from '@lobehub/icons-static-svg/icons/doubao.svg' with { type: 'text' }
import flux from '@lobehub/icons-static-svg/icons/flux.svg' with { type: 'text' }
import google from '@lobehub/icons-static-svg/icons/gemini.svg' with { type: 'text' }
import hunyuan from '@lobehub/icons-static-svg/icons/hunyuan.svg' with { type: 'text' }
import jina from '@lobehub/icons-static-svg/icons/jina.svg' with { type: 'text' }
import meta from '@lobehub/icons-static-svg/icons/meta.svg' with { type: 'text' }
import midjourney from '@lobehub/icons-static-svg/icons/midjourney.svg' with { type: 'text' }
import minimax from '@lobehub/icons-static-svg/icons/minimax.svg' with { type: 'text' }
import mistral from '@lobehub/icons-static-svg/icons/mistral.svg' with { type: 'text' }
import moonshot from '@lobehub/icons-static-svg/icons/moonshot.svg' with { type: 'text' }
import openai from '@lobehub/icons-static-svg/icons/openai.svg' with { type: 'text' }
import perplexity from '@lobehub/icons-static-svg/icons/perplexity.svg' with { type: 'text' }
import qwen from '@lobehub/icons-static-svg/icons/qwen.svg' with { type: 'text' }
import spark from '@lobehub/icons-static-svg/icons/spark.svg' with { type: 'text' }
import stepfun from '@lobehub/icons-static-svg/icons/stepfun.svg' with { type: 'text' }
import wenxin from '@lobehub/icons-static-svg/icons/wenxin.svg' with { type: 'text' }
import xai from '@lobehub/icons-static-svg/icons/xai.svg' with { type: 'text' }
import yi from '@lobehub/icons-static-svg/icons/yi.svg' with { type: 'text' }
import zhipu from '@lobehub/icons-static-svg/icons/zhipu.svg' with { type: 'text' }
import type { VendorId } from '../lib/vendors'

// the files name themselves in a <title> (the console writes the vendor's name beside the mark instead) and
// carry a style attribute, which the console's CSP (style-src 'self') would refuse: both go
const plain = (svg: string) => svg.replace(/<title>[^<]*<\/title>/, '').replace(/ style="[^"]*"/g, '')

export const VENDOR_ICONS: Partial<Record<VendorId, string>> = Object.fromEntries(
  Object.entries({ anthropic, baichuan, cohere, deepseek, doubao, flux, google, hunyuan, jina, meta, midjourney, minimax, mistral, moonshot, openai, perplexity, qwen, spark, stepfun, wenxin, xai, yi, zhipu }).map(([id, svg]) => [id, plain(svg)]),
)
