/**
 * A controller's vocabulary in one import: the route decorators, the caller, the validated path parameters and the request
 * parts a handler takes, imported from `platform/http` (this folder) by every controller.
 */
export { Body, Header, Headers, Param, Query, Req, Res, StreamableFile } from '@nestjs/common';
export { ApiBody, ApiConsumes, ApiExtraModels, ApiHeader, ApiParam } from '@nestjs/swagger';
export { ApiRequest, Caller, ClientAddress, Principal } from '../access/principal';
export { NumericIdParam, SerialParam, UuidParam } from '../common/validators';
export { Route, Routes } from './route.decorator';
