import { contract } from './contract.js'

contract('media')
