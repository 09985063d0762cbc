import { contract } from './contract.js'

contract('block')
