import { contract } from './contract.js'

contract('render')
