import * as t from '@babel/types'
import _templateBuilder from '@babel/template'
import { isAtom } from './utils'

export default function plugin() {}
