import { contract } from './contract.js'

contract('text')
