/** Spanish messages: signing in and registering: passwords, mailed codes, single sign-on. */
export default {
  auth: {
    loginTitle: 'Iniciar sesión',
    loginSubtitle: 'Inicia sesión en tu cuenta de Sharedown.',
    registerTitle: 'Crea tu cuenta',
    registerSubtitle: 'Aloja documentos y compártelos con enlaces que tú controlas.',
    email: 'Correo electrónico',
    password: 'Contraseña',
    confirmPassword: 'Repite la contraseña',
    login: 'Iniciar sesión',
    logout: 'Cerrar sesión',
    register: 'Crear una cuenta',
    createAccount: 'Crear cuenta',
    noAccount: '¿Aún no tienes cuenta?',
    haveAccount: '¿Ya te has registrado?',
    emailInvalid: 'Introduce una dirección de correo válida.',
    passwordRequired: 'Introduce tu contraseña.',
    passwordLength: 'Usa de {min} a {max} caracteres.',
    passwordMismatch: 'Las contraseñas no coinciden.',
    sessionExpired: 'Tu sesión ha terminado. Vuelve a iniciar sesión para seguir donde estabas.',
  },
  email: {
    unverifiedLogin:
      'La dirección de correo de esta cuenta aún no está verificada. Inicia sesión una vez con un código enviado a ella; después tu contraseña funcionará.',
    codeLink: 'Enviarme un código de acceso por correo',
    forgotLink: '¿Has olvidado tu contraseña?',
    backToPassword: 'Iniciar sesión con tu contraseña',
    codeTitle: 'Iniciar sesión con un código por correo',
    codeHelp: 'Enviamos un código de 6 dígitos a tu dirección. No necesitas contraseña.',
    codeHelpNew:
      'Enviamos un código de 6 dígitos a tu dirección. No necesitas contraseña: el primer inicio de sesión crea tu cuenta.',
    send: 'Enviar código',
    sending: 'Enviando…',
    sentTo: 'Si {email} puede recibirlo, hay un código en camino. Funciona una vez, durante 10 minutos.',
    code: 'Código del correo',
    codeRule: 'Introduce los 6 dígitos del correo.',
    codeWrong: 'El código no es correcto, ha caducado o ya se ha usado. Pide uno nuevo.',
    signIn: 'Iniciar sesión',
    resend: 'Enviar un código nuevo',
    otherAddress: 'Usar otra dirección',
    twoFactorHelp:
      'Esta cuenta también pide su segundo factor: un código de tu aplicación de autenticación o un código de recuperación.',
    twoFactorCode: 'Código de autenticación o de recuperación',
    resetTitle: 'Restablecer tu contraseña',
    resetHelp:
      'Enviamos un código a tu dirección; con él eliges una contraseña nueva. Se cierran todas las sesiones de la cuenta.',
    resetSubmit: 'Establecer la contraseña e iniciar sesión',
    verifyTitle: 'Revisa tu correo',
    verifyHelp:
      'Hemos enviado un código a {email} si la dirección se puede registrar. Introdúcelo para terminar. Si la dirección ya tiene una cuenta, su titular ha recibido un aviso en su lugar: inicia sesión o restablece la contraseña.',
    verifySubmit: 'Verificar e iniciar sesión',
    bannerTitle: 'Tu dirección de correo no está verificada',
    bannerHelp:
      'Los enlaces limitados a direcciones de correo concretas solo se abren para ti cuando tu dirección está verificada.',
    bannerSent: 'Hemos enviado un código a {email}.',
    verify: 'Verificar',
    verified: 'Tu dirección de correo está verificada.',
    allowlistWarning:
      'Esta instancia no puede verificar direcciones de correo (no hay correo ni inicio de sesión único configurados). Solo las cuentas cuya dirección se verificó antes pueden abrir este enlace.',
  },
  sso: {
    or: 'o',
    errorSso:
      'El inicio de sesión único no se completó y no has iniciado sesión. Inténtalo de nuevo o inicia sesión de otra forma.',
    errorUnverified:
      'Ya existe una cuenta con esta dirección de correo, pero tu proveedor de identidad no avala la dirección, así que el inicio de sesión único no puede abrir esa cuenta. Inicia sesión de otra forma o pide al proveedor que verifique tu dirección.',
    passwordOff: 'Esta instancia no permite iniciar sesión con contraseña.',
    registerOff: 'Aquí no se crean cuentas nuevas. Inicia sesión con inicio de sesión único: el primer acceso crea tu cuenta.',
    emailVerified: 'Verificada',
    emailUnverified: 'Sin verificar',
    emailUnverifiedHelp:
      'Los enlaces limitados a direcciones de correo concretas solo se abren para esta cuenta cuando su dirección está verificada.',
    title: 'Inicio de sesión único',
    help: 'Esta instancia inicia sesión a través de un proveedor OpenID. Su administrador registra allí esta dirección como URI de redirección:',
    redirectUri: 'URI de redirección',
  },
};
