import { contract } from './contract.js'

contract('slide')
