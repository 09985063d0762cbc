import { contract } from './contract.js'

contract('deck')
